import type { ThemeMode } from './layout';

/*
 * The reader's theme. By default a page follows the system (`prefers-color-scheme`, in the
 * stylesheet). The switch is three links (`?theme=light|dark|system`); the choice is kept in a
 * cookie on the site's path, so the next pages, the search page and the 404 page keep it without
 * any script. A site whose customization turns the switch off (`themes.toggeable: false`) always
 * shows its default theme.
 */
export const THEME_COOKIE = 'quire_theme';
const YEAR = 365 * 24 * 3600;

export interface Theme {
  mode: ThemeMode;
  toggle: boolean;
  /** The cookie to send: the reader chose just now. */
  cookie?: string;
}

const chosen = (value: string | undefined): ThemeMode | null => (value === 'light' || value === 'dark' || value === 'system' ? value : null);

export function themeOf(asked: string | undefined, cookies: Record<string, string>, customization: Record<string, unknown>, cookiePath: string): Theme {
  const themes = (customization.themes ?? {}) as { default?: string; toggeable?: boolean };
  if (themes.toggeable === false) return { mode: themes.default === 'dark' ? 'dark' : 'light', toggle: false };
  const now = chosen(asked);
  if (now) {
    const cookie = now === 'system' ? `${THEME_COOKIE}=; Path=${cookiePath}; SameSite=Lax; Max-Age=0` : `${THEME_COOKIE}=${now}; Path=${cookiePath}; SameSite=Lax; Max-Age=${YEAR}`;
    return { mode: now, toggle: true, cookie };
  }
  return { mode: chosen(cookies[THEME_COOKIE]) ?? 'system', toggle: true };
}

/** The theme server-side renders (integration blocks) are asked in: with the system's, light. */
export const renderTheme = (mode: ThemeMode): 'light' | 'dark' => (mode === 'dark' ? 'dark' : 'light');
