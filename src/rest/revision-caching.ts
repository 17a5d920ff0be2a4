import { etagOf, ifNoneMatchHolds } from '../lib/etag';
import { Response } from '../lib/response';

/*
 * Caching of the answers a revision id names (`/v1/spaces/{id}/revisions/{id}/...`). A revision is
 * never changed after it is written, so what it holds can be kept for good: the platform's renderer
 * keeps these answers with no end (Next.js `cacheLife('max')`) unless the answer's
 * `X-GitBook-Cache-Control` gives a shorter max-age, and HTTP caches read `Cache-Control`. Some
 * answers still move under a fixed revision id: computed pages follow their source's latest
 * version, file download URLs are signed for an hour, a JSON document's integration blocks follow
 * the integrations installed, a merge names its change request. Those are kept a minute only.
 * The answer depends on who asks (a token that loses access must not read it from a shared cache):
 * private, and varied by the credential.
 */

/** How long an answer that can still move may be kept, in seconds. */
export const MOVING_MAX_AGE = 60;

const FOREVER = 'private, max-age=31536000, immutable';
const MOVING = `private, max-age=${MOVING_MAX_AGE}`;

/** The answer with its caching headers; 304 without a body when the caller holds the same bytes. */
export function revisionAnswer(request: Request, body: unknown, fixed: boolean, extra: Record<string, string> = {}): Response {
  const text = JSON.stringify(body);
  const etag = etagOf(text);
  const headers: Record<string, string> = {
    ...extra,
    etag,
    'cache-control': fixed ? FOREVER : MOVING,
    vary: 'Authorization',
    ...(fixed ? {} : { 'x-gitbook-cache-control': `max-age=${MOVING_MAX_AGE}` }),
  };
  if (ifNoneMatchHolds(request.headers.get('if-none-match'), etag)) return new Response(null, { status: 304, headers });
  return new Response(text, { status: 200, headers: { ...headers, 'content-type': 'application/json; charset=utf-8' } });
}
