/**
 * The Content-Security-Policy of a page this server renders itself (GraphiQL, the API reference,
 * the app page): scripts, styles, images and requests only from this server, never framed, no
 * base or form target elsewhere. What a page needs beyond that is named, not written out again.
 */
export interface PagePolicyNeeds {
  /** `'self'` where the page's bundle loads kinds of resource not listed here; `'none'` otherwise. */
  defaultSrc?: "'self'" | "'none'";
  /** Style attributes and elements its library writes as it lays itself out. */
  inlineStyles?: boolean;
  /** Fonts from this server or data: URLs. */
  fonts?: boolean;
  /** Workers from this server or blob: URLs. */
  workers?: boolean;
}

export function pagePolicy(needs: PagePolicyNeeds = {}): string {
  return [
    `default-src ${needs.defaultSrc ?? "'none'"}`,
    "script-src 'self'",
    `style-src 'self'${needs.inlineStyles ? " 'unsafe-inline'" : ''}`,
    "img-src 'self' data:",
    ...(needs.fonts ? ["font-src 'self' data:"] : []),
    ...(needs.workers ? ["worker-src 'self' blob:"] : []),
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}
