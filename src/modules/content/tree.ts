import type { Db, Tx } from '../../db/client';
import type { RevisionRow } from '../../db/schema/revisions';
import type { PageType } from './input';
import { loadObjects, putList, readLists, type Hash, type ObjectBatch } from './objects';

/** A link page's target, as the platform's ContentRef. */
export type LinkTarget = { kind: 'url'; url: string } | { kind: 'page'; page: string } | { kind: 'file'; file: string };

export interface PageLayout {
  width: 'default' | 'wide';
  cover: boolean;
  coverSize: 'hero' | 'full';
  title: boolean;
  description: boolean;
  tableOfContents: boolean;
  outline: boolean;
  pagination: boolean;
  metadata: boolean;
}

/** How a new document page is laid out until its editor says otherwise. */
export const DEFAULT_LAYOUT: PageLayout = {
  width: 'default',
  cover: true,
  coverSize: 'hero',
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
};

/** A page as a stored object, without its children (a list hash in the stored form). */
export interface PageData {
  id: string;
  type: PageType;
  title: string;
  /** Unique among its siblings; absent on link pages, which have no path. */
  slug?: string;
  emoji?: string;
  icon?: string;
  description?: string;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  layout?: PageLayout;
  /** Hash of the body object (the markdown); absent for an empty page. */
  body?: Hash;
  target?: LinkTarget;
  /** A computed page's source: `OpenApiComputedSource` of computed.ts. */
  computed?: { type: 'builtin:openapi'; props: Record<string, unknown>; dependencies?: Record<string, unknown> };
  createdAt: string;
  updatedAt: string;
}

export interface FileData {
  id: string;
  name: string;
  contentType: string;
  size: number;
  dimensions?: { width: number; height: number };
  /** Hash of the bytes in the blob store. */
  blob: Hash;
}

/**
 * A page of a revision's tree in memory. Loaded or written pages carry their object's hash; an
 * edit makes new pages without one, for itself and its ancestors, and shares every other page.
 */
export interface TreePage {
  readonly hash?: Hash;
  readonly data: PageData;
  /** The body of a page computed at read time (never stored, so it has no body object). */
  readonly markdown?: string;
  readonly children: readonly TreePage[];
}

export interface TreeFile {
  readonly hash?: Hash;
  readonly data: FileData;
}

export interface PageEntry {
  page: TreePage;
  parentId: string | null;
  /** Slugs from the top, joined by `/`; empty for link pages. */
  path: string;
}

export interface RevisionTree {
  revision: RevisionRow;
  pages: readonly TreePage[];
  files: readonly TreeFile[];
  byId: ReadonlyMap<string, PageEntry>;
  byPath: ReadonlyMap<string, PageEntry>;
  filesById: ReadonlyMap<string, TreeFile>;
}

export function indexTree(revision: RevisionRow, pages: readonly TreePage[], files: readonly TreeFile[]): RevisionTree {
  const byId = new Map<string, PageEntry>();
  const byPath = new Map<string, PageEntry>();
  const walk = (list: readonly TreePage[], parentId: string | null, prefix: string) => {
    for (const page of list) {
      const path = page.data.slug === undefined ? '' : prefix ? `${prefix}/${page.data.slug}` : page.data.slug;
      const entry = { page, parentId, path };
      byId.set(page.data.id, entry);
      if (path) byPath.set(path, entry);
      walk(page.children, page.data.id, path || prefix);
    }
  };
  walk(pages, null, '');
  return { revision, pages, files, byId, byPath, filesById: new Map(files.map((f) => [f.data.id, f])) };
}

const TREE_CACHE_LIMIT = 100;
const trees = new Map<string, RevisionTree>();

/**
 * The whole tree of a revision, read level by level: a statement or two per level of nesting,
 * whatever the number of pages. Revisions never change, so a tree read once is kept (the most
 * recent hundred per process).
 */
export async function loadRevisionTree(db: Db | Tx, revision: RevisionRow): Promise<RevisionTree> {
  const cached = trees.get(revision.id);
  if (cached) return cached;
  const lists = await readLists(db, [revision.pages, revision.files].filter((h): h is Hash => h != null));
  const fileHashes = revision.files ? lists.get(revision.files)! : [];
  const pageData = new Map<Hash, PageData & { pages?: Hash }>();
  const childrenOf = new Map<Hash, Hash[]>();
  let level = revision.pages ? lists.get(revision.pages)! : [];
  const files = fileHashes.length ? await loadObjects(db, fileHashes) : new Map();
  while (level.length) {
    const objects = await loadObjects(db, level);
    for (const [hash, object] of objects) pageData.set(hash, object.data as PageData & { pages?: Hash });
    const childLists = level.map((h) => pageData.get(h)!.pages).filter((h): h is Hash => h != null);
    const children = childLists.length ? await readLists(db, childLists) : new Map<Hash, Hash[]>();
    const next: Hash[] = [];
    for (const hash of level) {
      const list = pageData.get(hash)!.pages;
      const items = list ? children.get(list)! : [];
      childrenOf.set(hash, items);
      next.push(...items);
    }
    level = next;
  }
  const build = (hash: Hash): TreePage => {
    const { pages: _, ...data } = pageData.get(hash)!;
    return { hash, data, children: childrenOf.get(hash)!.map(build) };
  };
  const top = revision.pages ? lists.get(revision.pages)!.map(build) : [];
  const tree = indexTree(
    revision,
    top,
    fileHashes.map((hash) => ({ hash, data: files.get(hash)!.data as FileData })),
  );
  if (trees.size >= TREE_CACHE_LIMIT) trees.delete(trees.keys().next().value!);
  trees.set(revision.id, tree);
  return tree;
}

/** Writes the pages that have no hash yet, and the lists above them; answers the top list's hash. */
export function writePages(batch: ObjectBatch, pages: readonly TreePage[]): Hash | null {
  const write = (page: TreePage): Hash => {
    if (page.hash) return page.hash;
    const children = putList(batch, page.children.map(write));
    return batch.put('page', { ...page.data, ...(children ? { pages: children } : {}) });
  };
  return putList(batch, pages.map(write));
}

export function writeFiles(batch: ObjectBatch, files: readonly TreeFile[]): Hash | null {
  return putList(
    batch,
    files.map((f) => f.hash ?? batch.put('file', f.data)),
  );
}

/** The pages with the one of id `id` replaced by `change(page)`, and its ancestors rebuilt. */
export function replacePage(pages: readonly TreePage[], id: string, change: (page: TreePage) => TreePage): readonly TreePage[] {
  return pages.map((page) => {
    if (page.data.id === id) return change(page);
    if (!contains(page, id)) return page;
    return { data: page.data, children: replacePage(page.children, id, change) };
  });
}

/** The pages without the one of id `id` (and its subpages). */
export function removePage(pages: readonly TreePage[], id: string): readonly TreePage[] {
  return pages.filter((p) => p.data.id !== id).map((page) => (contains(page, id) ? { data: page.data, children: removePage(page.children, id) } : page));
}

/** The pages with `page` inserted under `parentId` (null: the top) at `index` among its siblings. */
export function insertPage(pages: readonly TreePage[], parentId: string | null, index: number, page: TreePage): readonly TreePage[] {
  if (parentId === null) return [...pages.slice(0, index), page, ...pages.slice(index)];
  return replacePage(pages, parentId, (parent) => ({ data: parent.data, children: insertPage(parent.children, null, index, page) }));
}

function contains(page: TreePage, id: string): boolean {
  return page.children.some((c) => c.data.id === id || contains(c, id));
}

/** Every page of the tree, depth first. */
export function* allPages(pages: readonly TreePage[]): Generator<TreePage> {
  for (const page of pages) {
    yield page;
    yield* allPages(page.children);
  }
}
