import { derivedId } from '../../lib/ids';
import { uniqueSlug, slugify } from './slugs';
import { DEFAULT_LAYOUT, indexTree, type PageData, type RevisionTree, type TreePage } from './tree';

/** The source of a computed page, as stored and as the platform's ComputedContentSourceRevisionOpenAPI. */
export interface OpenApiComputedSource {
  type: 'builtin:openapi';
  props: { models: boolean };
  dependencies: { spec: { ref: { kind: 'openapi'; spec: string } } };
}

export const openApiSource = (slug: string, models: boolean): OpenApiComputedSource => ({
  type: 'builtin:openapi',
  props: { models },
  dependencies: { spec: { ref: { kind: 'openapi', spec: slug } } },
});

/** Pages stored before the source took the platform's shape kept the slug in their props. */
export function computedSlugOf(data: PageData): { slug: string; models: boolean } | null {
  const source = data.computed as (Partial<OpenApiComputedSource> & { props?: Record<string, unknown> }) | undefined;
  if (!source || source.type !== 'builtin:openapi') return null;
  const slug = source.dependencies?.spec?.ref?.spec ?? (typeof source.props?.spec === 'string' ? source.props.spec : undefined);
  return slug ? { slug, models: source.props?.models === true } : null;
}

/** What one computed page turns into: an overview body and the pages under it. */
export interface ComputedResult {
  /** Part of the cache key: the version shown, or the state explaining why there is none. */
  version: string;
  overview: string;
  pages: { key: string; title: string; markdown: string }[];
}

export function hasComputedPages(tree: RevisionTree): boolean {
  for (const entry of tree.byId.values()) if (entry.page.data.type === 'computed') return true;
  return false;
}

export function computedRequests(tree: RevisionTree): { slug: string; models: boolean }[] {
  const out: { slug: string; models: boolean }[] = [];
  for (const entry of tree.byId.values()) {
    const source = entry.page.data.type === 'computed' ? computedSlugOf(entry.page.data) : null;
    if (source) out.push(source);
  }
  return out;
}

const cache = new Map<string, RevisionTree>();

/**
 * The tree with each computed page turned into a document page (same id, title and slug) whose
 * body is an overview and whose subpages are the computed ones. Their ids derive from the
 * computed page's id and their key, so they stay the same from one spec version to the next.
 * Never stored: the result of a revision and the versions it showed is kept (the last hundred).
 */
export function expandComputed(tree: RevisionTree, resultOf: (page: PageData) => ComputedResult): RevisionTree {
  const results = new Map<string, ComputedResult>();
  for (const entry of tree.byId.values()) if (entry.page.data.type === 'computed') results.set(entry.page.data.id, resultOf(entry.page.data));
  const key = `${tree.revision.id}|${[...results].map(([id, r]) => `${id}=${r.version}`).join(',')}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const expand = (pages: readonly TreePage[]): TreePage[] =>
    pages.map((page) => {
      const result = results.get(page.data.id);
      if (!result) return page.children.length ? { ...page, children: expand(page.children) } : page;
      const { computed: _, ...data } = page.data;
      const taken = new Set<string>();
      const children = result.pages.map((p): TreePage => {
        const slug = uniqueSlug(slugify(p.title), taken);
        taken.add(slug);
        return { data: { id: derivedId(page.data.id, p.key), type: 'document', title: p.title, slug, layout: DEFAULT_LAYOUT, createdAt: data.createdAt, updatedAt: data.updatedAt }, markdown: p.markdown, children: [] };
      });
      return { data: { ...data, type: 'document', layout: data.layout ?? DEFAULT_LAYOUT }, markdown: result.overview, children };
    });
  const expanded = indexTree(tree.revision, expand(tree.pages), tree.files);
  if (cache.size >= 100) cache.delete(cache.keys().next().value!);
  cache.set(key, expanded);
  return expanded;
}
