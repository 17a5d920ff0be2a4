import { requireViewer, type RequestContext } from '../../context/request-context';
import type { SpaceRow } from '../../db/schema/spaces';
import { NotFoundError, ValidationError } from '../../domain/errors';
import type { Page, PageArgs } from '../../domain/page';
import { parseInput } from '../../domain/validate';
import { searchPublishedSpaces, type SpaceHitInPlace } from '../content/service';
import { siteById } from './loaders';
import { publishedSite } from './published';
import type { StructureView } from './sections';
import type { SiteSpaceInSite } from './site-spaces';
import { siteSearchSchema, type SiteSearchInput, type SiteSearchScope } from './search-input';

/*
 * Searching a published site (the renderer's searchSiteContent): the spaces the site publishes in
 * the scope asked, as its readers get them, through the content search (stemmed, the last word as
 * a prefix). Whoever may read the site as published may search it: its members, anyone for a
 * public or unlisted site, and the API token of its URL lookup, which reads only the spaces it was
 * given (a visitor-auth site's adaptive content lists them).
 */

/** The site spaces of each section in order (one list when the site has no sections). */
function containers(structure: StructureView): SiteSpaceInSite[][] {
  if (structure.type === 'siteSpaces') return [structure.structure];
  return structure.structure.flatMap((item) => (item.kind === 'section' ? [item.siteSpaces] : item.sections.map((s) => s.siteSpaces)));
}

function scopeOf(input: ReturnType<typeof parseSearch>): SiteSearchScope {
  const { scope, mode, siteSpaceIds, siteSpaceId } = input;
  if (scope) {
    if (scope.mode === 'all') return { kind: 'all' };
    if (scope.mode === 'specific') {
      if (!scope.siteSpaceIds) throw new ValidationError('scope.siteSpaceIds is required with mode specific', ['scope', 'siteSpaceIds']);
      return { kind: 'specific', siteSpaceIds: scope.siteSpaceIds };
    }
    if (scope.restrictTo && !scope.currentSiteSpace) throw new ValidationError('scope.restrictTo needs scope.currentSiteSpace', ['scope', 'restrictTo']);
    return { kind: 'default', include: scope.includedSiteSpaces ?? [], current: scope.currentSiteSpace, restrictTo: scope.restrictTo };
  }
  if (siteSpaceIds && (mode === undefined || mode === 'specific')) return { kind: 'specific', siteSpaceIds };
  if (mode === 'current') {
    if (!siteSpaceId) throw new ValidationError('siteSpaceId is required with mode current', ['siteSpaceId']);
    return { kind: 'default', include: [], current: siteSpaceId };
  }
  if (mode === 'all') return { kind: 'all' };
  throw new ValidationError('scope is required: { "mode": "default" | "specific" | "all" } (or the deprecated mode with siteSpaceIds / siteSpaceId)', ['scope']);
}

const parseSearch = (input: unknown) => parseInput(siteSearchSchema, input);

/** The site spaces a scope names; an id that is not one of the site's is a 400 naming it. */
function siteSpacesIn(structure: StructureView, scope: SiteSearchScope): SiteSpaceInSite[] {
  const all = containers(structure).flat();
  const byId = new Map(all.map((s) => [s.row.id, s]));
  const named = (ids: string[], field: string[]) =>
    ids.map((id) => {
      const found = byId.get(id);
      if (!found) throw new ValidationError(`${field.join('.')}: no site space ${id} in this site`, field);
      return found;
    });
  if (scope.kind === 'all') return all;
  if (scope.kind === 'specific') return named(scope.siteSpaceIds, ['siteSpaceIds']);
  const current = scope.current ? named([scope.current], ['scope', 'currentSiteSpace'])[0] : undefined;
  if (scope.restrictTo === 'currentSiteSpace') return [current!];
  const defaults = containers(structure).flatMap((list) => {
    const first = list.find((s) => s.isDefault) ?? list[0];
    return first ? [first] : [];
  });
  const chosen = [...defaults, ...named(scope.include, ['scope', 'includedSiteSpaces']), ...(current ? [current] : [])];
  const unique = [...new Map(chosen.map((s) => [s.row.id, s])).values()];
  return scope.restrictTo === 'otherSiteSpaces' ? unique.filter((s) => s.row.id !== current!.row.id) : unique;
}

/**
 * The spaces of a published site matching a query, best first, each with its best pages. A site
 * token's reader searches only the spaces of its grant; a member previewing a site not yet
 * published, only those they may read themselves.
 */
export async function searchSite(ctx: RequestContext, organizationId: string, siteId: string, input: SiteSearchInput, args: PageArgs, max: number): Promise<Page<SpaceHitInPlace>> {
  const viewer = requireViewer(ctx);
  const { site, structure } = await publishedSite(ctx, organizationId, siteId);
  const parsed = parseSearch(input);
  const chosen = siteSpacesIn(structure, scopeOf(parsed));
  const spaces = new Map<string, SpaceRow>();
  for (const { space } of chosen) {
    if (spaces.has(space.id)) continue;
    const asPublished = site.published && !viewer.site;
    if (asPublished || (await ctx.authz.can('space:readContent', space))) spaces.set(space.id, space);
  }
  return searchPublishedSpaces(ctx, site.organizationId, [...spaces.values()], { query: parsed.query }, args, max);
}

/** The same for a site named by its id alone (GraphQL's global ID carries no organization). */
export async function searchSiteById(ctx: RequestContext, siteId: string, input: SiteSearchInput, args: PageArgs, max: number): Promise<Page<SpaceHitInPlace>> {
  requireViewer(ctx);
  const site = await siteById(ctx).load(siteId);
  if (!site) throw new NotFoundError('Site');
  return searchSite(ctx, site.organizationId, site.id, input, args, max);
}
