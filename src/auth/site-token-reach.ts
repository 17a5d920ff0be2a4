import type { SiteGrant } from '../context/request-context';
import { ForbiddenError, NotFoundError, UnauthenticatedError } from '../domain/errors';

/** The read routes of a site's published content (the renderer's calls); every other route is refused to its token. */
function reachable(grant: SiteGrant, method: string, pathname: string): 'yes' | 'no' | 'write' {
  const read = method === 'GET' || method === 'HEAD';
  const parts = pathname.split('/').filter(Boolean);
  if (parts[0] !== 'v1') return 'no';
  // The space routes check the space against the grant: only the site's published spaces answer.
  // Computing a document is a read sent as a POST (its source is the body).
  if (parts[1] === 'spaces' && parts.length === 6 && parts.slice(3).join('/') === 'content/computed/document') return method === 'POST' ? 'yes' : 'no';
  // Change requests are drafts, not published content: missing to the token (its site's URLs never name one).
  if (parts[1] === 'spaces' && parts[3] === 'change-requests') return read ? 'no' : 'write';
  if (parts[1] === 'spaces' && parts.length >= 3) return read ? 'yes' : 'write';
  if (pathname === `/v1/orgs/${grant.organizationId}/sites/${grant.siteId}/published`) return read ? 'yes' : 'write';
  // The renderer asks for a redirect by source when a path is no page.
  if (pathname === `/v1/orgs/${grant.organizationId}/sites/${grant.siteId}/redirect`) return read ? 'yes' : 'write';
  // Searching a site is a read sent as a POST: its own site's answers, another site's is missing (404), as its other reads are.
  if (method === 'POST' && parts.length === 6 && parts[1] === 'orgs' && parts[3] === 'sites' && parts[5] === 'search') {
    return pathname === `/v1/orgs/${grant.organizationId}/sites/${grant.siteId}/search` ? 'yes' : 'no';
  }
  // Integration blocks of the site's pages render with the token (POST carries the request, it writes nothing).
  if (parts[1] === 'integrations' && parts.length === 4 && parts[3] === 'render') return read || method === 'POST' ? 'yes' : 'write';
  if (pathname === '/v1/urls/published') return read || method === 'POST' ? 'yes' : 'write';
  return read ? 'no' : 'write';
}

/**
 * Refuses a site token outside its reach: GraphQL and other doors 401, a write 403, any other read
 * 404 (as a missing object would).
 */
export function assertSiteTokenReach(grant: SiteGrant, method: string, pathname: string): void {
  if (!pathname.startsWith('/v1/')) throw new UnauthenticatedError('A site API token reads published content through /v1 only');
  const answer = reachable(grant, method, pathname);
  if (answer === 'write') throw new ForbiddenError('A site API token only reads the published content of its site');
  if (answer === 'no') throw new NotFoundError('Resource');
}
