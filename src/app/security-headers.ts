/**
 * What a page from this server may do when a browser renders it. API answers are JSON and never
 * meant to be rendered or framed; a page that needs more (GraphiQL, a downloaded file's sandbox)
 * sets its own Content-Security-Policy, which is kept.
 */
const API_CSP = "default-src 'none'; frame-ancestors 'none'";
/** A year, the usual minimum for HSTS preload lists. */
const HSTS = 'max-age=31536000; includeSubDomains';

export function addSecurityHeaders(headers: Headers, options: { https: boolean }): void {
  headers.set('X-Content-Type-Options', 'nosniff');
  headers.set('Referrer-Policy', 'no-referrer');
  const own = headers.get('Content-Security-Policy');
  // A page that says who may frame it (an integration's web frame: anyone) would be contradicted by
  // DENY, which browsers without frame-ancestors would obey; every other answer is never framed.
  if (!own || !/frame-ancestors/.test(own) || /frame-ancestors 'none'/.test(own)) headers.set('X-Frame-Options', 'DENY');
  if (!own) headers.set('Content-Security-Policy', API_CSP);
  // Only when the public URL is https: over plain http the header would lock browsers out.
  if (options.https) headers.set('Strict-Transport-Security', HSTS);
}
