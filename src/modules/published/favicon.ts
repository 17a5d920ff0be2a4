import { isSafeUrl, WEB_URL } from '../../domain/urls';
import { esc } from './html';

/** Where a site answers for its icon: browsers ask the root of a host, and pages link it. */
export const FAVICON_PATH = 'favicon.ico';

/** The customization's favicon emoji (`1f680`, or code points joined by `-`) as text; undefined when it is not one. */
export function emojiOf(code: string | undefined): string | undefined {
  if (!code || code.length > 64) return undefined;
  const points = code.split('-').map((h) => (/^[0-9a-f]{1,6}$/i.test(h) ? parseInt(h, 16) : NaN));
  return points.every((n) => Number.isFinite(n) && n <= 0x10ffff) ? String.fromCodePoint(...points) : undefined;
}

/** An emoji as an icon: made from code points only, never from stored text. */
export const emojiSvg = (emoji: string) => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><text y=".9em" font-size="90">${emoji}</text></svg>`;

/** A site without an icon of its own: the first letter of its title on its primary colour. */
export function letterSvg(title: string, color: string): string {
  const letter = [...title.trim()][0]?.toUpperCase() ?? 'Q';
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="${esc(color)}"/><text x="32" y="44" font-family="system-ui,sans-serif" font-size="36" font-weight="700" fill="#fff" text-anchor="middle">${esc(letter)}</text></svg>`;
}

/** What `favicon.ico` answers: the customization's image (a redirect to it), its emoji, or the site's letter. */
export function siteFavicon(favicon: { icon?: Record<string, string>; emoji?: string }, title: string, color: string): { redirect: string } | { svg: string } {
  const icon = [favicon.icon?.light, favicon.icon?.dark].find((url) => url !== undefined && isSafeUrl(url, WEB_URL));
  if (icon) return { redirect: icon };
  const emoji = emojiOf(favicon.emoji);
  return { svg: emoji ? emojiSvg(emoji) : letterSvg(title, color) };
}
