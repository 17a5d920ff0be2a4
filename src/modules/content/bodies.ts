import type { RequestContext } from '../../context/request-context';
import { defineLoader } from '../../db/loader';
import type { BlockLanguages } from './block-syntax';
import { blockLanguages } from './integration-blocks';
import { resolverFor } from './links';
import { markdownToDocument } from './markdown';
import { loadObjects, type Hash } from './objects';
import type { SpaceRow } from '../../db/schema/spaces';
import type { PageEntry, RevisionTree, TreePage } from './tree';

/** Page bodies by hash: the bodies asked for in one tick, and not cached, are read in one statement. */
const bodyLoader = defineLoader<Hash, string>('page bodies', async (db, hashes) => {
  const objects = await loadObjects(db, hashes);
  return hashes.map((hash) => (objects.get(hash)!.data as { markdown: string }).markdown);
});

/** A page's markdown, read with the other bodies asked for in the same tick. */
export async function pageMarkdown(ctx: RequestContext, page: TreePage): Promise<string> {
  if (page.markdown !== undefined) return page.markdown;
  if (!page.data.body) return '';
  return (await bodyLoader(ctx).load(page.data.body))!;
}

/** The markdown of many pages, in one statement for the bodies not read before; none once the request's work stopped. */
export async function pageBodies(ctx: RequestContext, pages: Iterable<TreePage>): Promise<Map<string, string>> {
  ctx.bounds.check();
  const list = [...pages];
  const hashes = list.map((p) => p.data.body).filter((h): h is string => h !== undefined);
  const objects = hashes.length ? await loadObjects(ctx.db, hashes) : new Map();
  return new Map(list.map((p) => [p.data.id, p.markdown ?? (p.data.body ? (objects.get(p.data.body)!.data as { markdown: string }).markdown : '')]));
}

/** A page's body as the platform's JSON document, its links resolved in the revision. */
export function pageDocument(ctx: RequestContext, tree: RevisionTree, entry: PageEntry, markdown: string, languages?: BlockLanguages): Record<string, unknown> {
  return markdownToDocument(markdown, resolverFor(tree, entry.path, ctx.config.appUrl), languages);
}

const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

/** The same, counted into the size of the answer it goes into; throws once the request's work stopped (see WorkBounds). */
export function countedDocument(ctx: RequestContext, tree: RevisionTree, entry: PageEntry, markdown: string, languages?: BlockLanguages): Record<string, unknown> {
  const document = pageDocument(ctx, tree, entry, markdown, languages);
  ctx.bounds.admit(jsonBytes(document));
  ctx.bounds.check();
  return document;
}

/*
 * What a GraphQL answer shows of a page's body, counted into its size. Null once the request's
 * work has stopped: the answer is then the reason alone, and a thousand fields in flight end
 * without an error each.
 */

/** A page's markdown for an answer. */
export async function answerMarkdown(ctx: RequestContext, page: TreePage): Promise<string | null> {
  if (ctx.bounds.stopped) return null;
  const markdown = await pageMarkdown(ctx, page);
  return ctx.bounds.admit(Buffer.byteLength(markdown)) ? markdown : null;
}

/**
 * A page's JSON document for an answer, rendered in a slice of the event loop: a request asking
 * for a thousand of them lets timers and other requests run meanwhile, and stops rendering once
 * its deadline passes.
 */
export async function answerDocument(ctx: RequestContext, space: SpaceRow, tree: RevisionTree, entry: PageEntry): Promise<Record<string, unknown> | null> {
  if (ctx.bounds.stopped) return null;
  const [markdown, languages] = await Promise.all([pageMarkdown(ctx, entry.page), blockLanguages(ctx, space)]);
  return ctx.bounds.slice(() => {
    if (ctx.bounds.stopped) return null;
    const document = pageDocument(ctx, tree, entry, markdown, languages);
    return ctx.bounds.admit(jsonBytes(document)) ? document : null;
  });
}
