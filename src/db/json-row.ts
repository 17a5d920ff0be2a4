import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

/**
 * A whole row as one JSON value keyed by the TypeScript column names, and back: how a statement
 * brings related rows along (a session's organizations, a space's parent collection) without a
 * second statement.
 */
export function rowAsJson(table: PgTable): SQL {
  const columns = Object.entries(getTableColumns(table));
  return sql`json_build_object(${sql.join(
    columns.map(([key, column]) => sql`${sql.raw(`'${key}'`)}, ${column}`),
    sql`, `,
  )})`;
}

export function rowFromJson<T>(table: PgTable, json: Record<string, unknown>): T {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = json[key];
    row[key] = value == null ? null : column.mapFromDriverValue(value);
  }
  return row as T;
}
