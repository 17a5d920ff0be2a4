import { createTwoFilesPatch } from 'diff';
import { canonicalJson, type Hash } from './objects';
import type { PageData, RevisionTree } from './tree';

/** How a page differs between two revisions. */
export type ChangeKind = 'added' | 'removed' | 'moved' | 'modified';

export interface PageChange {
  pageId: string;
  title: string;
  /** Where the page is in the newer revision (in the older one when removed). */
  path: string;
  /** One page may be both moved and modified. */
  kinds: ChangeKind[];
  /** Unified diff of the body, older to newer; empty when the body did not change. */
  diff: string;
}

/** The body hashes a change list needs the text of. */
export function changedBodies(before: RevisionTree, after: RevisionTree): Hash[] {
  const hashes: Hash[] = [];
  for (const [id, entry] of after.byId) {
    const old = before.byId.get(id);
    if (old?.page.data.body !== entry.page.data.body) hashes.push(...[old?.page.data.body, entry.page.data.body].filter((h): h is Hash => !!h));
  }
  for (const [id, entry] of before.byId) if (!after.byId.has(id) && entry.page.data.body) hashes.push(entry.page.data.body);
  return hashes;
}

/**
 * The pages added, removed, moved or modified from `before` to `after`, in the newer tree's order
 * then the removed ones, each with a unified diff of its markdown.
 */
export function pageChanges(before: RevisionTree, after: RevisionTree, bodies: ReadonlyMap<Hash, string>): PageChange[] {
  const text = (hash: Hash | undefined) => (hash ? (bodies.get(hash) ?? '') : '');
  const changes: PageChange[] = [];
  const diffOf = (path: string, from: Hash | undefined, to: Hash | undefined) =>
    from === to ? '' : createTwoFilesPatch(`a/${path}`, `b/${path}`, text(from), text(to), undefined, undefined, { context: 3 });

  for (const [id, entry] of after.byId) {
    const old = before.byId.get(id);
    const data = entry.page.data;
    if (!old) {
      changes.push({ pageId: id, title: data.title, path: entry.path, kinds: ['added'], diff: diffOf(entry.path, undefined, data.body) });
      continue;
    }
    const kinds: ChangeKind[] = [];
    // Moving is changing parent; a new place among the same siblings is not, nor a new slug.
    if (old.parentId !== entry.parentId) kinds.push('moved');
    if (contentOf(old.page.data) !== contentOf(data)) kinds.push('modified');
    if (kinds.length) changes.push({ pageId: id, title: data.title, path: entry.path, kinds, diff: diffOf(entry.path, old.page.data.body, data.body) });
  }
  for (const [id, entry] of before.byId) {
    if (!after.byId.has(id)) changes.push({ pageId: id, title: entry.page.data.title, path: entry.path, kinds: ['removed'], diff: diffOf(entry.path, entry.page.data.body, undefined) });
  }
  return changes;
}

/** What a reviewer reads as the page's content: everything but its place and its dates. */
function contentOf(data: PageData): string {
  const { updatedAt: _updated, slug: _slug, ...rest } = data;
  return canonicalJson(rest);
}
