import { and, eq } from 'drizzle-orm';
import { requireViewer, type RequestContext } from '../../context/request-context';
import { NotFoundError, ValidationError, hiddenAsMissing } from '../../domain/errors';
import { getOrganization } from '../organizations/service';
import { getSpace } from '../spaces/service';
import type { SpaceRow } from '../../db/schema/spaces';
import { siteById } from './loaders';
import { shareLinks, type SiteRow } from '../../db/schema/sites';

/** A site of that organization the viewer may see; anything else, another organization's included, is NOT_FOUND. */
export async function getSite(ctx: RequestContext, organizationId: string, siteId: string): Promise<SiteRow> {
  const org = await getOrganization(ctx, organizationId);
  const site = await siteById(ctx).load(siteId);
  if (!site || site.organizationId !== org.id) throw new NotFoundError('Site');
  await ctx.authz.assertVisible('site:view', site, 'Site');
  return site;
}

/** A site by id alone (GraphQL), through the same checks. */
export async function getSiteById(ctx: RequestContext, siteId: string): Promise<SiteRow> {
  requireViewer(ctx);
  const site = await siteById(ctx).load(siteId);
  if (!site) throw new NotFoundError('Site');
  return hiddenAsMissing(getSite(ctx, site.organizationId, siteId), 'Site');
}

/**
 * A site for reading its structure: one the viewer sees, or else a published share-link site that
 * the share key given opens (its readers then see every space it publishes).
 */
export async function readableSite(ctx: RequestContext, organizationId: string, siteId: string, shareKey?: string): Promise<{ site: SiteRow; published: boolean }> {
  try {
    return { site: await getSite(ctx, organizationId, siteId), published: false };
  } catch (error) {
    if (!(error instanceof NotFoundError) || !shareKey) throw error;
    const site = await siteById(ctx).load(siteId);
    if (!site || site.organizationId !== organizationId || !site.published || site.visibility !== 'share-link') throw error;
    const [link] = await ctx.db.select({ id: shareLinks.id }).from(shareLinks).where(and(eq(shareLinks.siteId, site.id), eq(shareLinks.key, shareKey), eq(shareLinks.active, true)));
    if (!link) throw error;
    return { site, published: true };
  }
}

/** The first check of every change to a site the caller resolved: admins and members with the create role. */
export async function assertCanManage(ctx: RequestContext, site: SiteRow): Promise<void> {
  await ctx.authz.assert('site:manage', site, 'Only organization admins and members with the create role can change sites');
}

/** The first check of every read of a site the caller resolved (memoized: free after getSite). */
export async function assertCanView(ctx: RequestContext, site: SiteRow): Promise<void> {
  await ctx.authz.assertVisible('site:view', site, 'Site');
}

/** Spaces of the organization the viewer can see, by id, in the order given; anything else is a 400 naming it. */
export async function spacesOfOrganization(ctx: RequestContext, organizationId: string, ids: string[], field: string): Promise<SpaceRow[]> {
  const found: SpaceRow[] = [];
  for (const id of ids) {
    const space = await getSpace(ctx, id).catch((error: unknown) => {
      if (error instanceof NotFoundError) return null;
      throw error;
    });
    if (!space || space.organizationId !== organizationId) throw new ValidationError(`${field}: no space ${id} in this organization`, [field]);
    found.push(space);
  }
  return found;
}

/** A path segment from a title: lower case, dashes. */
export function pathOf(title: string): string {
  const path = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\w-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 90);
  return path || 'space';
}

/** `path`, or `path-2`, `path-3`... when taken; the answer is then taken too. */
export function uniquePath(path: string, taken: Set<string>): string {
  let candidate = path;
  for (let n = 2; taken.has(candidate); n++) candidate = `${path}-${n}`;
  taken.add(candidate);
  return candidate;
}
