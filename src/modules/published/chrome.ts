import { conditionHolds, type Claims } from '../../domain/conditions';
import { emojiOf, FAVICON_PATH } from './favicon';
import type { Chrome, ThemeMode } from './layout';

type ContentLink = { title: string; to: { kind: string; url?: string; page?: string } | null; condition?: string };

/** The customization's logo, favicon, header links and footer; links to pages of this content resolve to them. */
export function chromeOf(customization: Record<string, unknown>, theme: ThemeMode, claims: Claims, base: string, pageHref: (pageId: string) => string | null): Chrome {
  const header = (customization.header ?? {}) as { logo?: Record<string, string>; links?: ContentLink[] };
  const footer = (customization.footer ?? {}) as { groups?: { title: string; links: ContentLink[] }[]; copyright?: string };
  const favicon = (customization.favicon ?? {}) as { icon?: Record<string, string>; emoji?: string };
  const href = (link: ContentLink) => (link.to?.kind === 'url' ? (link.to.url ?? null) : link.to?.kind === 'page' && link.to.page ? pageHref(link.to.page) : null);
  const links = (list: ContentLink[] | undefined) =>
    (list ?? []).filter((l) => conditionHolds(l.condition ?? null, claims)).flatMap((l) => (href(l) ? [{ title: l.title, href: href(l)! }] : []));
  return {
    logo: { light: header.logo?.light, dark: header.logo?.dark },
    favicon: theme === 'dark' ? (favicon.icon?.dark ?? favicon.icon?.light) : (favicon.icon?.light ?? favicon.icon?.dark),
    faviconEmoji: emojiOf(favicon.emoji),
    defaultFavicon: `${base}/${FAVICON_PATH}`,
    headerLinks: links(header.links),
    footer: (footer.groups ?? []).map((g) => ({ title: g.title, links: links(g.links) })),
    copyright: footer.copyright,
  };
}

const COLOR = /^#[0-9a-f]{3,8}$/i;
const DEFAULT_ACCENT = '#346DDB';

/** The primary colour for each theme; a stored value that is not a colour (it goes into the stylesheet) is the default. */
export function accentOf(customization: Record<string, unknown>): { light: string; dark: string } {
  const color = ((customization.styling ?? {}) as { primaryColor?: { light?: unknown; dark?: unknown } }).primaryColor ?? {};
  const pick = (value: unknown) => (typeof value === 'string' && COLOR.test(value) ? value : undefined);
  const light = pick(color.light) ?? DEFAULT_ACCENT;
  return { light, dark: pick(color.dark) ?? light };
}
