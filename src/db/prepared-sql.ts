import type { Sql } from 'postgres';

type Unsafe = (query: string, params?: unknown[], options?: { prepare?: boolean }) => unknown;

/**
 * Reads and ordinary writes. A bulk write (an import's thousand rows in one INSERT) has a text of
 * its own for each row count: kept on the connection, each would hold server memory until the pool
 * recycles it, for a statement that is seldom run twice.
 */
const MAX_PREPARED_PARAMS = 100;
const MAX_PREPARED_TEXT = 16_384;
const worthPreparing = (query: string, params?: unknown[]) => !!params?.length && params.length <= MAX_PREPARED_PARAMS && query.length <= MAX_PREPARED_TEXT;

/**
 * drizzle hands postgres.js every statement it has not been asked to name as unnamed
 * (`prepare: false`): PostgreSQL then parses it on every request, and postgres.js first
 * asks for its parameter types in a round trip of its own. Wrapped here, every statement with
 * parameters (within the bounds above) is prepared once per connection, keyed by its text, as
 * postgres.js does for its own tagged queries; it is still planned for its values on every run
 * (./client.ts, `plan_cache_mode`). Statements built from ids (`in ($1, $2, ...)`) are few shapes: lists go through
 * `= any($1)` (./any.ts). A connection's statements go with it when the pool recycles it.
 *
 * Not through a transaction pooler (PgBouncer): a statement prepared on one server connection is
 * not on the next transaction's.
 */
export function preparedSql<T extends Sql>(sql: T): T {
  const scope = (inner: Sql): unknown =>
    new Proxy(inner, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver) as unknown;
        if (typeof value !== 'function') return value;
        if (property === 'unsafe') {
          return (query: string, params?: unknown[], options?: { prepare?: boolean }) =>
            (value as Unsafe).call(target, query, params, worthPreparing(query, params) ? { ...options, prepare: true } : options);
        }
        if (property === 'begin' || property === 'savepoint') {
          // The callback, always last, gets the transaction's own client: wrapped as well.
          return (...args: unknown[]) => {
            const fn = args.at(-1) as (tx: Sql) => unknown;
            return (value as (...a: unknown[]) => unknown).call(target, ...args.slice(0, -1), (tx: Sql) => fn(scope(tx) as Sql));
          };
        }
        return value;
      },
    });
  return scope(sql) as T;
}
