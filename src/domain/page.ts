import { ValidationError } from './errors';

/**
 * One page of a keyset-paginated list. REST renders it as `{ items, next: { page }, count }`,
 * GraphQL as a connection; the REST `page` token and the GraphQL cursor are the same string.
 */
export interface Page<T> {
  items: T[];
  /** Cursor of each item, in order. */
  cursors: string[];
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  /** Total rows matching the filters, across all pages; computed only when asked. */
  count: () => Promise<number>;
}

/** Relay-style window: forward (`first`/`after`) or backward (`last`/`before`). */
export interface PageArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_REST_PAGE_SIZE = 1000;
export const MAX_GRAPHQL_PAGE_SIZE = 100;

export type CursorValue = string | number | Date | null;

export function encodeCursor(values: CursorValue[]): string {
  const plain = values.map((v) => (v instanceof Date ? { d: v.toISOString() } : v));
  return Buffer.from(JSON.stringify(plain), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string, arity: number): CursorValue[] {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(parsed) || parsed.length !== arity) throw new Error('arity');
    return parsed.map((v) => {
      if (v && typeof v === 'object' && typeof (v as { d?: unknown }).d === 'string') {
        const date = new Date((v as { d: string }).d);
        if (Number.isNaN(date.getTime())) throw new Error('date');
        return date;
      }
      if (v === null || typeof v === 'string' || typeof v === 'number') return v;
      throw new Error('value');
    });
  } catch {
    throw new ValidationError('Invalid page cursor: pass a value taken from a previous response', ['page']);
  }
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
  return { first, after: page || undefined };
}

export function emptyPage<T>(): Page<T> {
  return { items: [], cursors: [], hasNextPage: false, hasPreviousPage: false, count: async () => 0 };
}
