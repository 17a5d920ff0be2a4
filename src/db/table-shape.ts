import { Column, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { appDialect } from './dialect';
import { timestampFromText } from './timestamp-text';

/**
 * What the hand-built statements need of a table, worked out once per table instead of on every
 * request: the select list naming each column by its TypeScript key and the row as JSON, both
 * already rendered, and the decoding of the columns whose driver values need it (timestamps; text
 * comes as it is).
 */
export interface TableShape {
  /** `"spaces"."id" as "id", ...`: one chunk of SQL rather than two per column to render. */
  selectList: SQL;
  /** The whole row as one JSON object keyed by TypeScript names (see ./json-row.ts). */
  asJson: SQL;
  /** A driver row (keyed by TypeScript names) as the row drizzle would give. */
  fromDriver(raw: Record<string, unknown>): Record<string, unknown>;
}

const shapes = new WeakMap<PgTable, TableShape>();
const passThrough = Column.prototype.mapFromDriverValue;

/** How a column's driver value becomes the row's: null when it is used as it comes (text, numbers). */
function decoderOf(column: PgColumn): ((value: unknown) => unknown) | null {
  if (column.mapFromDriverValue === passThrough) return null;
  // Timestamps with a time zone, as Date (the app's `ts()`): read by position, not by V8's parser.
  if (column.columnType === 'PgTimestamp' && (column as unknown as { withTimezone: boolean }).withTimezone) {
    return (value) => (typeof value === 'string' ? timestampFromText(value) : value);
  }
  return (value) => column.mapFromDriverValue(value);
}

/**
 * The row decoder of a table, as one function returning one object literal: every row then has
 * the same hidden class from the start, built in one step. Assigning the keys one by one to an
 * empty object, in a loop over the columns, cost a third of reading a page of 50 spaces. The keys
 * are the table's own TypeScript names, quoted; nothing from a request goes into the source.
 */
function rowBuilder(columns: (readonly [string, ((value: unknown) => unknown) | null])[]): (raw: Record<string, unknown>) => Record<string, unknown> {
  const decoders = columns.map(([, decode]) => decode);
  const fields = columns.map(([key, decode], i) => {
    const name = JSON.stringify(key);
    const value = `raw[${name}]`;
    return decode ? `${name}: ${value} == null ? null : d[${i}](${value})` : `${name}: ${value} ?? null`;
  });
  return new Function('d', `return function fromDriver(raw) { return { ${fields.join(', ')} }; };`)(decoders);
}

export function tableShape(table: PgTable): TableShape {
  let shape = shapes.get(table);
  if (shape) return shape;
  const columns = Object.entries(getTableColumns(table)) as [string, PgColumn][];
  const list = sql.join(
    columns.map(([key, column]) => sql`${column} as ${sql.identifier(key)}`),
    sql`, `,
  );
  const json = sql`json_build_object(${sql.join(
    columns.map(([key, column]) => sql`${sql.raw(`'${key}'`)}, ${column}`),
    sql`, `,
  )})`;
  const render = (chunk: SQL) => {
    const rendered = appDialect.sqlToQuery(chunk);
    if (rendered.params.length) throw new Error('column lists have no parameters');
    return sql.raw(rendered.sql);
  };
  shape = {
    selectList: render(list),
    asJson: render(json),
    fromDriver: rowBuilder(columns.map(([key, column]) => [key, decoderOf(column)])),
  };
  shapes.set(table, shape);
  return shape;
}
