import { markdownReferences, type ContentRef } from './markdown';
import { resolverFor } from './links';
import type { RevisionTree } from './tree';

/** What /v1 calls a link's status; an external URL is `ok`. */
export type LinkStatus = 'ok' | 'broken' | 'in-app';

/** One target linked from some pages: the same target, relation and status found in one or more pages. */
export interface LinkUsage {
  target: ContentRef;
  /** A link refers to its target; an image depends on it. */
  relation: 'reference' | 'dependsOn';
  status: LinkStatus;
  /** Pages (ids) where it is found, in tree order. */
  pages: string[];
}

/**
 * The links and images of the given pages of a revision, grouped by target, in the order they are
 * first met (pages in tree order, references in reading order). `bodies` holds each page's markdown.
 * `checkpoint` runs before each page is parsed: it may wait, or throw to stop.
 */
export async function linkUsages(
  tree: RevisionTree,
  pageIds: readonly string[],
  bodies: ReadonlyMap<string, string>,
  appUrl: string,
  checkpoint: () => void | Promise<void>,
): Promise<LinkUsage[]> {
  const usages = new Map<string, LinkUsage>();
  for (const pageId of pageIds) {
    await checkpoint();
    const entry = tree.byId.get(pageId);
    const markdown = bodies.get(pageId);
    if (!entry || !markdown) continue;
    for (const found of markdownReferences(markdown, resolverFor(tree, entry.path, appUrl))) {
      const target: ContentRef = found.ref.kind === 'anchor' && !found.ref.page ? { ...found.ref, page: pageId } : found.ref;
      const status: LinkStatus = found.status === 'external' ? 'ok' : found.status;
      const relation = found.kind === 'image' ? 'dependsOn' : 'reference';
      const key = JSON.stringify([target, relation, status]);
      const usage = usages.get(key) ?? { target, relation, status, pages: [] };
      if (!usage.pages.includes(pageId)) usage.pages.push(pageId);
      usages.set(key, usage);
    }
  }
  return [...usages.values()];
}
