import type { RequestContext } from '../../context/request-context';
import { presentSpace } from '../spaces/present';
import { publishedUrl, siteSpaceCount, type SiteSpaceInSite } from './service';
import type { ShareLinkRow, SiteRow } from './table';

/** The platform's Site. */
export async function presentSite(ctx: RequestContext, site: SiteRow) {
  const published = publishedUrl(ctx, site);
  return {
    object: 'site' as const,
    id: site.id,
    type: site.type,
    title: site.title,
    visibility: site.visibility,
    published: site.published,
    ...(site.basename ? { basename: site.basename } : {}),
    ...(site.proxyOrigin ? { proxy: { origin: site.proxyOrigin, target: published } } : {}),
    siteSpaces: await siteSpaceCount(ctx, site),
    createdAt: site.createdAt.toISOString(),
    adaptiveContent: { enabled: site.adaptiveContent },
    agentsContext: site.agentsContext,
    features: [],
    urls: {
      location: `${ctx.config.publicUrl}/v1/orgs/${site.organizationId}/sites/${site.id}`,
      app: `${ctx.config.appUrl}/o/${site.organizationId}/sites/${site.id}`,
      ...(site.published ? { published } : {}),
    },
  };
}

/** The platform's SiteSpace. */
export async function presentSiteSpace(ctx: RequestContext, { site, row, space }: SiteSpaceInSite) {
  return {
    object: 'site-space' as const,
    id: row.id,
    path: row.path,
    space: await presentSpace(ctx, space),
    title: space.title,
    default: site.defaultSiteSpaceId === row.id,
    ...(row.condition ? { condition: row.condition } : {}),
    urls: site.published ? { published: `${publishedUrl(ctx, site)}/${row.path}` } : {},
  };
}

/** The platform's ShareLink: its published URL carries the key. */
export function presentShareLink(ctx: RequestContext, { site, link }: { site: SiteRow; link: ShareLinkRow }) {
  return {
    object: 'share-link' as const,
    id: link.id,
    createdAt: link.createdAt.toISOString(),
    name: link.name,
    active: link.active,
    urls: { published: `${publishedUrl(ctx, site)}?shareKey=${link.key}` },
  };
}
