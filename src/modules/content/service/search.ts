import type { RequestContext } from '../../../context/request-context';
import type { SpaceRow } from '../../../db/schema/spaces';
import type { Page, PageArgs } from '../../../domain/page';
import { parseInput } from '../../../domain/validate';
import { getOrganization } from '../../organizations/service';
import { searchSchema, type SearchInput } from '../input';
import { searchOrganizationSpaces, searchSpacePages, type PageHit, type SpaceHit } from '../search';
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
