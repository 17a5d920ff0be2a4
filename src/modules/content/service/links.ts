import type { RequestContext } from '../../../context/request-context';
import { windowOf, type PageArgs } from '../../../domain/page';
import { parseInput } from '../../../domain/validate';
import { linkQuerySchema, type LinkQueryInput } from '../input';
import { linkUsages, type LinkUsage } from '../references';
import { pageBodies } from '../bodies';
import { type SpaceContent, allPagesOf, fileOf, findPage, getContent } from './read';

/*
 * The links of content: usages grouped by target with broken counts, and the pages that use a file.
 */

/**
 * The links and images of some content (all its pages, or one page), grouped by target, with
 * counts of all and of broken ones; optionally only those of one status.
 */
export async function linksOf(ctx: RequestContext, content: SpaceContent, query: LinkQueryInput, args: PageArgs, max: number) {
  const { pageId, status } = parseInput(linkQuerySchema, query);
  const pages = pageId === undefined ? allPagesOf(content.tree) : [findPage(content, pageId).entry.page];
  const bodies = await pageBodies(ctx, pages);
  const all = await linkUsages(content.tree, pages.map((p) => p.data.id), bodies, ctx.config.appUrl, () => ctx.bounds.checkpoint());
  const count = (list: LinkUsage[]) => list.reduce((n, u) => n + u.pages.length, 0);
  const stats = { total: count(all), broken: { total: count(all.filter((u) => u.status === 'broken')) } };
  return { ...content, page: windowOf(status ? all.filter((u) => u.status === status) : all, args, max), stats };
}

/** The links of the space's current content. */
export async function listLinks(ctx: RequestContext, spaceId: string, query: LinkQueryInput, args: PageArgs, max: number) {
  return linksOf(ctx, await getContent(ctx, spaceId), query, args, max);
}

/** The pages of some content that show or link to a file, in tree order. */
export async function fileBacklinksOf(ctx: RequestContext, content: SpaceContent, fileId: string, args: PageArgs, max: number) {
  const { file } = fileOf(content, fileId);
  const pages = allPagesOf(content.tree);
  const usages = await linkUsages(content.tree, pages.map((p) => p.data.id), await pageBodies(ctx, pages), ctx.config.appUrl, () => ctx.bounds.checkpoint());
  const linking = new Set(usages.filter((u) => u.target.kind === 'file' && u.target.file === file.data.id).flatMap((u) => u.pages));
  const entries = pages.filter((p) => linking.has(p.data.id)).map((p) => content.tree.byId.get(p.data.id)!);
  return { ...content, page: windowOf(entries, args, max) };
}

export async function listFileBacklinks(ctx: RequestContext, spaceId: string, fileId: string, args: PageArgs, max: number) {
  return fileBacklinksOf(ctx, await getContent(ctx, spaceId), fileId, args, max);
}
