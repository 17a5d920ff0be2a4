import { canonicalJson } from './objects';
import type { PageData, PageEntry, RevisionTree, TreeFile } from './tree';

/*
 * The platform's "semantic changes" of a revision (`GET /spaces/{id}/revisions/{id}/changes`):
 * what a notification says happened, page by page, from the revision's parent to it. Integrations
 * read it on `space_content_updated` to tell people which pages changed.
 */

/** The spec's ChangedRevisionPage. */
export interface ChangedPage {
  id: string;
  type: PageData['type'];
  title: string;
  path?: string;
}

type Attribute<T> = { before?: T; after?: T };

export type SemanticChange =
  | { type: 'page_created' | 'page_deleted'; page: ChangedPage }
  | { type: 'page_edited'; page: ChangedPage; attributes: Record<string, Attribute<string>> }
  | { type: 'page_moved'; page: ChangedPage; parent: { before?: ChangedPage; after?: ChangedPage } }
  | { type: 'file_created' | 'file_deleted'; file: TreeFile }
  | { type: 'file_edited'; file: TreeFile; attributes: Record<string, Attribute<string | number>> }
  | { type: 'variables_edited'; variables: Record<string, Attribute<unknown>> };

const changedPage = (entry: PageEntry): ChangedPage => ({ id: entry.page.data.id, type: entry.page.data.type, title: entry.page.data.title, ...(entry.path ? { path: entry.path } : {}) });

/*
 * The attributes the spec names for each page type. `document` stands for the page's body: Quire's
 * body hash plays the part of the platform's document id (same body, same value).
 */
const PAGE_ATTRIBUTES: Record<PageData['type'], (keyof PageData)[]> = {
  document: ['title', 'description', 'slug', 'emoji', 'body'],
  computed: ['title', 'description', 'slug', 'emoji', 'body'],
  group: ['title', 'emoji', 'slug'],
  link: ['title', 'emoji'],
};

function pageAttributes(before: PageData, after: PageData): Record<string, Attribute<string>> {
  const attributes: Record<string, Attribute<string>> = {};
  for (const key of PAGE_ATTRIBUTES[after.type]) {
    const [from, to] = [before[key], after[key]] as (string | undefined)[];
    if (from !== to) attributes[key === 'body' ? 'document' : key] = { ...(from !== undefined ? { before: from } : {}), ...(to !== undefined ? { after: to } : {}) };
  }
  return attributes;
}

/** Everything of a page but its place and dates: what makes it edited. */
function contentOf(data: PageData): string {
  const { updatedAt: _updated, createdAt: _created, ...rest } = data;
  return canonicalJson(rest);
}

function fileAttributes(before: TreeFile, after: TreeFile): Record<string, Attribute<string | number>> {
  const attributes: Record<string, Attribute<string | number>> = {};
  for (const key of ['name', 'contentType', 'size'] as const) {
    if (before.data[key] !== after.data[key]) attributes[key] = { before: before.data[key], after: after.data[key] };
  }
  return attributes;
}

/**
 * The changes from `before` to `after`: pages in the newer tree's order (created, moved, edited),
 * then deleted pages, then files, then variables. One pass over each tree.
 */
export function semanticChanges(before: RevisionTree, after: RevisionTree): SemanticChange[] {
  const changes: SemanticChange[] = [];
  const parentOf = (tree: RevisionTree, id: string | null) => (id ? tree.byId.get(id) : undefined);
  for (const [id, entry] of after.byId) {
    const old = before.byId.get(id);
    if (!old) {
      changes.push({ type: 'page_created', page: changedPage(entry) });
      continue;
    }
    if (old.parentId !== entry.parentId) {
      const [from, to] = [parentOf(before, old.parentId), parentOf(after, entry.parentId)];
      changes.push({ type: 'page_moved', page: changedPage(entry), parent: { ...(from ? { before: changedPage(from) } : {}), ...(to ? { after: changedPage(to) } : {}) } });
    }
    if (contentOf(old.page.data) !== contentOf(entry.page.data)) changes.push({ type: 'page_edited', page: changedPage(entry), attributes: pageAttributes(old.page.data, entry.page.data) });
  }
  for (const [id, entry] of before.byId) if (!after.byId.has(id)) changes.push({ type: 'page_deleted', page: changedPage(entry) });

  for (const [id, file] of after.filesById) {
    const old = before.filesById.get(id);
    if (!old) changes.push({ type: 'file_created', file });
    else if (old.hash !== file.hash || canonicalJson(old.data) !== canonicalJson(file.data)) changes.push({ type: 'file_edited', file, attributes: fileAttributes(old, file) });
  }
  for (const [id, file] of before.filesById) if (!after.filesById.has(id)) changes.push({ type: 'file_deleted', file });

  const [varsBefore, varsAfter] = [before.revision.variables ?? {}, after.revision.variables ?? {}];
  const variables: Record<string, Attribute<unknown>> = {};
  for (const name of new Set([...Object.keys(varsBefore), ...Object.keys(varsAfter)])) {
    const [from, to] = [varsBefore[name], varsAfter[name]];
    if (canonicalJson(from ?? null) !== canonicalJson(to ?? null)) variables[name] = { ...(from !== undefined ? { before: from } : {}), ...(to !== undefined ? { after: to } : {}) };
  }
  if (Object.keys(variables).length) changes.push({ type: 'variables_edited', variables });
  return changes;
}
