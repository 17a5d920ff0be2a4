/**
 * What a published site looks like until it is customized: the platform's defaults, every
 * required setting present, so the published view validates against the official spec.
 */
export const DEFAULT_CUSTOMIZATION = {
  styling: {
    theme: 'clean',
    primaryColor: { light: '#346DDB', dark: '#346DDB' },
    infoColor: { light: '#787878', dark: '#787878' },
    successColor: { light: '#02A36A', dark: '#02A36A' },
    warningColor: { light: '#FE9A00', dark: '#FE9A00' },
    dangerColor: { light: '#FB2C36', dark: '#FB2C36' },
    corners: 'rounded',
    depth: 'subtle',
    links: 'default',
    font: 'Inter',
    monospaceFont: 'IBMPlexMono',
    background: 'plain',
    icons: 'regular',
    sidebar: { background: 'default', list: 'default' },
    search: 'subtle',
    codeTheme: { default: { light: 'default-light', dark: 'default-dark' }, openapi: { light: 'default-light', dark: 'default-dark' } },
  },
  internationalization: { locale: 'en' },
  favicon: {},
  header: { preset: 'default', links: [] },
  footer: { groups: [] },
  themes: { default: 'light', toggeable: true },
  pdf: { enabled: true },
  feedback: { enabled: false },
  ai: { mode: 'search' },
  advancedCustomization: { enabled: true },
  trademark: { enabled: true },
  externalLinks: { target: 'self' },
  pagination: { enabled: true },
  pageActions: { externalAI: true, markdown: true, items: ['external-ai', 'markdown'] },
  git: { showEditLink: false },
  privacyPolicy: {},
  socialPreview: {},
  insights: { trackingCookie: true },
  socialAccounts: [],
} as const;

type Settings = Record<string, unknown>;
const isObject = (value: unknown): value is Settings => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A saved customization with the settings newer renderers read and older saves lack: social
 * accounts, the code themes, and the ordered page actions (taken from the two flags they replace).
 * What was saved is kept as it is.
 */
export function completeCustomization(saved: Settings): Settings {
  const styling = isObject(saved.styling) ? saved.styling : {};
  const actions = isObject(saved.pageActions) ? saved.pageActions : {};
  const items = Array.isArray(actions.items) ? actions.items : [...(actions.externalAI !== false ? ['external-ai'] : []), ...(actions.markdown !== false ? ['markdown'] : [])];
  return {
    ...saved,
    styling: { ...styling, codeTheme: isObject(styling.codeTheme) ? styling.codeTheme : DEFAULT_CUSTOMIZATION.styling.codeTheme },
    pageActions: { externalAI: true, markdown: true, ...actions, items },
    socialAccounts: Array.isArray(saved.socialAccounts) ? saved.socialAccounts : [],
  };
}
