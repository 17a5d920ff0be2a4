import type { Sql } from 'postgres';
import { aroundUnsafe } from './around-unsafe';

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
 * (./client.ts, `plan_cache_mode`). Statements built from ids (`in ($1, $2, ...)`) are few
 * shapes: lists go through `= any($1)` (./any.ts). A connection's statements go with it when the
 * pool recycles it.
 *
 * Not through a transaction pooler (PgBouncer): a statement prepared on one server connection is
 * not on the next transaction's.
 */
export function preparedSql<T extends Sql>(sql: T): T {
  return aroundUnsafe(sql, (unsafe) => (query, params, options) => unsafe(query, params, worthPreparing(query, params) ? { ...options, prepare: true } : options));
}
