import { param, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

/**
 * `column = any($1::text[])`: one array parameter instead of an IN list of one parameter per key.
 * Batch loaders send hundreds of keys; with one parameter the statement text stays the same
 * whatever the batch size, so it is prepared once per connection and cheap to build.
 */
export function anyOf(column: PgColumn, values: readonly string[]): SQL {
  return sql`${column} = any(${param([...values])}::text[])`;
}
