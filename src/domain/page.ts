import { z } from 'zod';
import { decodeCursor, encodeCursor, type CursorValue } from '../lib/cursor';
import { ValidationError } from './errors';

/**
 * One page of a keyset-paginated list. REST renders it as `{ items, next: { page }, count }`,
 * GraphQL as a connection; the REST `page` token and the GraphQL cursor are the same string.
 */
export interface Page<T> {
  items: T[];
  /** Cursor of the item at an index; encoded only when asked for. */
  cursor(index: number): string;
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  /** Total rows matching the filters, across all pages; computed only when asked. */
  count: () => Promise<number>;
  /**
   * The total when it is known without a statement of its own: the whole list fits in this page,
   * or a count bounded to a cap came with the page. Undefined past the cap.
   */
  knownCount?: number;
}

/** Relay-style window: forward (`first`/`after`) or backward (`last`/`before`). */
export interface PageArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
  /**
   * The caller reports the list's size when it is small (REST's `count`, up to COUNT_CAP): the
   * page's statement then counts that far too. GraphQL counts only when `totalCount` is asked.
   */
  boundedCount?: boolean;
}

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_REST_PAGE_SIZE = 1000;
export const MAX_GRAPHQL_PAGE_SIZE = 100;

const BAD_CURSOR = 'Invalid page cursor: pass a value taken from a previous response';

export function decodePageCursor(cursor: string, arity: number): CursorValue[] {
  const values = decodeCursor(cursor, arity);
  if (!values) throw new ValidationError(BAD_CURSOR, ['page']);
  return values;
}

export function badCursor(): ValidationError {
  return new ValidationError(BAD_CURSOR, ['page']);
}

/** Checks a window and settles its direction and size. */
export function resolveWindow(args: PageArgs, max: number): { size: number; cursor: string | null; backward: boolean } {
  const { first, after, last, before } = args;
  if (first != null && last != null) throw new ValidationError('Pass either first or last, not both', ['first']);
  const size = last ?? first ?? DEFAULT_PAGE_SIZE;
  const field = last != null ? 'last' : 'first';
  if (!Number.isInteger(size) || size < 0) throw new ValidationError(`${field} must be a non-negative integer`, [field]);
  if (size > max) throw new ValidationError(`${field} must be at most ${max}`, [field]);
  const backward = last != null || (before != null && after == null);
  return { size, cursor: (backward ? before : after) ?? null, backward };
}

/** REST `limit`/`page` query parameters as a forward window. */
export function restPageArgs(query: URLSearchParams): PageArgs {
  const raw = query.get('limit');
  let first: number | undefined;
  if (raw !== null && raw !== '') {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 0 || n > MAX_REST_PAGE_SIZE) {
      throw new ValidationError(`limit must be an integer between 0 and ${MAX_REST_PAGE_SIZE}`, ['limit']);
    }
    first = n;
  }
  const page = query.get('page');
  return { first, after: page || undefined, boundedCount: true };
}

export function emptyPage<T>(): Page<T> {
  return { items: [], cursor: () => '', hasNextPage: false, hasPreviousPage: false, count: async () => 0, knownCount: 0 };
}

/** The same page with each item replaced; cursors and counts stay those of the original rows. */
export function mapPage<T, U>(page: Page<T>, fn: (item: T, index: number) => U): Page<U> {
  return { ...page, items: page.items.map(fn) };
}

/** A window of a list held in memory (cursors are positions in it): a revision's files and links, a site's spaces. */
export function windowOf<T>(list: readonly T[], args: PageArgs, max: number): Page<T> {
  const { size, cursor, backward } = resolveWindow(args, max);
  let start = 0;
  let end = list.length;
  if (cursor) {
    const [position] = decodeCursor(cursor, 1) ?? [];
    if (typeof position !== 'number' || !Number.isInteger(position) || position < 0) throw badCursor();
    if (backward) end = Math.min(position, list.length);
    else start = position + 1;
  }
  const from = backward ? Math.max(start, end - size) : start;
  const to = backward ? end : Math.min(end, start + size);
  return {
    items: list.slice(from, to),
    cursor: (i) => encodeCursor([from + i]),
    hasNextPage: to < list.length,
    hasPreviousPage: from > 0,
    count: async () => list.length,
    knownCount: list.length,
  };
}

/** The order of a list by creation time, as REST's `order` parameter gives it. */
export const orderSchema = z.object({
  order: z.enum(['asc', 'desc'], { error: 'order must be asc or desc' }).default('desc'),
});
export type OrderInput = z.input<typeof orderSchema>;
