import type { RequestContext } from '../../../context/request-context';
import type { SpaceRow } from '../../../db/schema/spaces';
import type { Page, PageArgs } from '../../../domain/page';
import { parseInput } from '../../../domain/validate';
import { getOrganization } from '../../organizations/service';
import { searchSchema, type SearchInput } from '../input';
import { currentTree } from '../commit';
import { searchGivenSpaces, searchOrganizationSpaces, searchSpacePages, type PageHit, type SpaceHit } from '../search';
import { contentReadableSpace } from './read';

/*
 * Searching content: a space, a published space, or the spaces of an organization the viewer sees.
 */

/** Pages of a space's current content matching a query, best first, with their matching sections. */
export async function searchSpace(ctx: RequestContext, spaceId: string, input: SearchInput, args: PageArgs, max: number): Promise<Page<PageHit>> {
  const space = await contentReadableSpace(ctx, spaceId);
  const { query } = parseInput(searchSchema, input);
  return searchSpacePages(ctx, space.id, query, args, max);
}

/**
 * System use (published sites): pages of a space's current content matching a query, for readers
 * of a site that publishes the space; the caller has decided they may read it.
 */
export async function searchPublishedSpace(ctx: RequestContext, space: SpaceRow, input: SearchInput, max: number): Promise<PageHit[]> {
  const { query } = parseInput(searchSchema, input);
  return (await searchSpacePages(ctx, space.id, query, { first: max }, max)).items;
}

/** Spaces of an organization the viewer may see whose current content matches a query, each with its best pages. */
export async function searchOrganizationContent(ctx: RequestContext, organizationId: string, input: SearchInput, args: PageArgs, max: number): Promise<Page<SpaceHit>> {
  const org = await getOrganization(ctx, organizationId);
  const { query } = parseInput(searchSchema, input);
  return searchOrganizationSpaces(ctx, org.id, await ctx.authz.listFilter('space', [org.id]), query, args, max);
}

/** A page hit with the pages above it (top first), as a published site's search shows where it sits. */
export type PageHitInPlace = PageHit & { ancestors: { id: string; title: string }[] };
export type SpaceHitInPlace = Omit<SpaceHit, 'pages'> & { pages: PageHitInPlace[] };

/**
 * System use (published sites): the given spaces' current content matching a query, best spaces
 * first, each with its best pages and their ancestors; the caller has decided the reader may read
 * every space given (those its site publishes in the scope asked).
 */
export async function searchPublishedSpaces(ctx: RequestContext, organizationId: string, spaces: readonly SpaceRow[], input: SearchInput, args: PageArgs, max: number): Promise<Page<SpaceHitInPlace>> {
  const { query } = parseInput(searchSchema, input);
  const page = await searchGivenSpaces(ctx, organizationId, spaces.map((s) => s.id), query, args, max);
  const byId = new Map(spaces.map((s) => [s.id, s]));
  // Trees of revisions are kept once read: the search itself has just read these.
  const items = await Promise.all(
    page.items.map(async (hit) => {
      const space = byId.get(hit.spaceId)!;
      const tree = await currentTree(ctx, space);
      const ancestorsOf = (pageId: string) => {
        const out: { id: string; title: string }[] = [];
        for (let parent = tree.byId.get(pageId)?.parentId; parent; ) {
          const entry = tree.byId.get(parent);
          if (!entry) break;
          out.unshift({ id: entry.page.data.id, title: entry.page.data.title });
          parent = entry.parentId;
        }
        return out;
      };
      return { ...hit, pages: hit.pages.map((p) => ({ ...p, ancestors: ancestorsOf(p.pageId) })) };
    }),
  );
  return { ...page, items, cursor: page.cursor };
}
