import type { RequestContext } from '../../context/request-context';
import type { SiteRow } from '../../db/schema/sites';

/**
 * Where the site is read when published: at its proxy's URL when it has one (the proxy forwards to
 * Quire, which knows the site by the Host and path), else under the organization on Quire's own
 * origin, at its basename (else its id).
 */
export function publishedUrl(ctx: RequestContext, site: SiteRow): string {
  if (site.proxyOrigin) return `https://${site.proxyOrigin}`;
  return `${ctx.config.publicUrl}/sites/${site.organizationId}/${site.basename ?? site.id}`;
}
