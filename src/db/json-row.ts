import type { SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { tableShape } from './table-shape';

/**
 * A whole row as one JSON value keyed by the TypeScript column names, and back: how a statement
 * brings related rows along (a session's organizations, a space's parent collection) without a
 * second statement.
 */
export function rowAsJson(table: PgTable): SQL {
  return tableShape(table).asJson;
}

export function rowFromJson<T>(table: PgTable, json: Record<string, unknown>): T {
  return tableShape(table).fromDriver(json) as T;
}
