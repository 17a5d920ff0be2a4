import { decodeGlobalID } from '@pothos/plugin-relay';
import { MAX_GRAPHQL_PAGE_SIZE, type Page, type PageArgs } from '../domain/page';

export const GRAPHQL_MAX = MAX_GRAPHQL_PAGE_SIZE;

export interface ConnectionWithCount<T> {
  edges: { cursor: string; node: T }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  totalCount: () => Promise<number>;
}

export function pageToConnection<T>(page: Page<T>): ConnectionWithCount<T> {
  return {
    edges: page.items.map((node, i) => ({ cursor: page.cursors[i], node })),
    pageInfo: {
      hasNextPage: page.hasNextPage,
      hasPreviousPage: page.hasPreviousPage,
      startCursor: page.cursors[0] ?? null,
      endCursor: page.cursors[page.cursors.length - 1] ?? null,
    },
    totalCount: page.count,
  };
}

export function connectionArgs(args: { first?: number | null; after?: string | null; last?: number | null; before?: string | null }): PageArgs {
  return { first: args.first, after: args.after, last: args.last, before: args.before };
}

/** Accepts either a REST id or a global ID of the given type, and returns the REST id. */
export function restIdFrom(id: string, typename: string): string {
  try {
    const decoded = decodeGlobalID(id);
    if (decoded.typename === typename && decoded.id) return decoded.id;
  } catch {
    // not a global ID: take it as a REST id
  }
  return id;
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
