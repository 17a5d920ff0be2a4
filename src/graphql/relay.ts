import { Kind, type FieldNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';
import { DataLoader } from '../lib/loaders';
import type { RequestContext } from '../context/request-context';
import { MAX_GRAPHQL_PAGE_SIZE, resolveWindow, type Page, type PageArgs } from '../domain/page';

export const GRAPHQL_MAX = MAX_GRAPHQL_PAGE_SIZE;

export interface ConnectionWithCount<T> {
  edges: { cursor: string; node: T }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  totalCount: () => Promise<number>;
}

/**
 * An edge whose cursor is encoded when read, not before: most queries never ask for it. A class,
 * so that the thousands of edges of a nested answer share one shape and one getter.
 */
class Edge<T> {
  constructor(
    readonly node: T,
    private readonly page: Page<T>,
    private readonly index: number,
  ) {}

  get cursor(): string {
    return this.page.cursor(this.index);
  }
}

/** A page as a Relay connection. Cursors are encoded only for the edges a query reads them from. */
export function pageToConnection<T>(page: Page<T>): ConnectionWithCount<T> {
  const last = page.items.length - 1;
  const edges: Edge<T>[] = new Array(page.items.length);
  for (let i = 0; i < edges.length; i++) edges[i] = new Edge(page.items[i], page, i);
  return {
    edges,
    pageInfo: {
      hasNextPage: page.hasNextPage,
      hasPreviousPage: page.hasPreviousPage,
      get startCursor() {
        return last >= 0 ? page.cursor(0) : null;
      },
      get endCursor() {
        return last >= 0 ? page.cursor(last) : null;
      },
    },
    totalCount: page.count,
  };
}

export function connectionArgs(args: PageArgs): PageArgs {
  return { first: args.first, after: args.after, last: args.last, before: args.before };
}

/** The `totalCount` field of every connection; counted only when asked for. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Pothos' connection field builder type is not exported
export function totalCountField(t: any) {
  return {
    totalCount: t.int({
      description: 'How many items the whole list holds, across all pages.',
      resolve: (conn: { totalCount: () => Promise<number> }) => conn.totalCount(),
    }),
  };
}

/** What a query reads of a connection field: whether it needs the page at all, and which fields of its nodes. */
export interface ConnectionSelection {
  /** False when only `totalCount` is asked: the page need not be loaded. */
  page: boolean;
  nodeFields: ReadonlySet<string>;
}

/** The fields a selection set names, through inline fragments and fragment spreads. */
function fieldsOf(set: SelectionSetNode | undefined, info: GraphQLResolveInfo, into: Map<string, SelectionSetNode[]>): Map<string, SelectionSetNode[]> {
  for (const selection of set?.selections ?? []) {
    if (selection.kind === Kind.FIELD) {
      const sets = into.get(selection.name.value) ?? [];
      if (selection.selectionSet) sets.push(selection.selectionSet);
      into.set(selection.name.value, sets);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) fieldsOf(selection.selectionSet, info, into);
    else fieldsOf(info.fragments[selection.name.value]?.selectionSet, info, into);
  }
  return into;
}

/**
 * What a connection field's selection asks, per field of the document: every parent of a nested
 * connection asks the same, and the walk was paid once per parent (500 times in a page of spaces
 * with their change requests).
 */
const selections = new WeakMap<FieldNode, ConnectionSelection & { key: string }>();

function rememberedSelection(info: GraphQLResolveInfo): ConnectionSelection & { key: string } {
  const field = info.fieldNodes[0];
  // Several nodes merge into one field only through fragments; the first one is as good a key, with the count.
  let known = info.fieldNodes.length === 1 ? selections.get(field) : undefined;
  if (!known) {
    const selection = connectionSelection(info);
    known = { ...selection, key: [...selection.nodeFields].sort().join(',') };
    if (info.fieldNodes.length === 1) selections.set(field, known);
  }
  return known;
}

export function connectionSelection(info: GraphQLResolveInfo): ConnectionSelection {
  const top = new Map<string, SelectionSetNode[]>();
  for (const node of info.fieldNodes) fieldsOf(node.selectionSet, info, top);
  const nodeFields = new Map<string, SelectionSetNode[]>();
  for (const edges of top.get('edges') ?? []) for (const node of fieldsOf(edges, info, new Map()).get('node') ?? []) fieldsOf(node, info, nodeFields);
  return { page: top.has('edges') || top.has('pageInfo'), nodeFields: new Set(nodeFields.keys()) };
}

/**
 * Loads the pages of one list for many parents at once: `load` answers, for the parents asked in
 * the same tick with the same arguments, one page (or a refusal) per parent id, in one statement.
 */
export type BatchLoad<P, T, A extends PageArgs> = (
  ctx: RequestContext,
  parents: readonly P[],
  args: A,
  selection: ConnectionSelection,
) => Promise<Map<string, Page<T> | Error>>;

/**
 * The resolver of a nested connection field: every parent in the request asking for the same
 * window joins one batch, so the field costs one statement however many parents there are. When
 * the query asks only for `totalCount`, no page is loaded (the window is checked all the same).
 */
export function batchedConnection<P extends { id: string }, T, A extends PageArgs>(name: string, load: BatchLoad<P, T, A>) {
  return async (parent: P, requested: A, ctx: RequestContext, info: GraphQLResolveInfo): Promise<ConnectionWithCount<T>> => {
    const selection = rememberedSelection(info);
    let args = requested;
    if (!selection.page) {
      resolveWindow(requested, GRAPHQL_MAX);
      args = { ...requested, first: 0, last: null, before: null };
    }
    const key = `${name}:${JSON.stringify(args)}:${selection.key}`;
    const loader = ctx.loaders.get(
      key,
      () =>
        new DataLoader<P, Page<T>, string>(
          async (parents) => {
            ctx.bounds.check();
            const pages = await load(ctx, parents, args, selection);
            return parents.map((p) => pages.get(p.id) ?? new Error(`No page of ${name} for ${p.id}`));
          },
          { cacheKeyFn: (p) => p.id },
        ),
    );
    return pageToConnection(await loader.load(parent));
  };
}
