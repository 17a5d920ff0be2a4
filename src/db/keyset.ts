import { and, asc, desc, param, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { encodeCursor, type CursorValue } from '../lib/cursor';
import { badCursor, decodePageCursor, resolveWindow, type Page, type PageArgs } from '../domain/page';
import { anyOf } from './any';
import type { Db } from './client';
import { rowAsJson, rowFromJson } from './json-row';
import { rowsOf } from './rows';
import { tableShape } from './table-shape';

/**
 * Keyset pagination over one table. `keys` are the sort columns, most significant first; the last
 * must be unique so that every row has its own cursor. No OFFSET anywhere: a page costs the same
 * at row one million as at row one.
 */
export interface KeysetSpec<TRow> {
  table: PgTable;
  keys: KeysetKey<TRow>[];
  direction: 'asc' | 'desc';
  where?: SQL;
}

/**
 * A row of another table brought along with each row of a page, through a foreign key, in the
 * page's own statement: a space's parent collection, say, with whether the viewer may see it.
 */
export interface KeysetInclude<TRow, TIncluded> {
  table: PgTable;
  /** The column of the listed table holding the included row's id. */
  via: PgColumn;
  /** The included table's id column. */
  id: PgColumn;
  /** Whether the viewer may see the included row, judged in SQL; true when absent. */
  visibleWhen?: SQL;
  attach(row: TRow, included: TIncluded, visible: boolean): void;
}

/**
 * Counts in REST pages are exact up to this many rows, computed in the page's statement; past it
 * a list leaves `count` out rather than scan a large organization for every page.
 */
export const COUNT_CAP = 1000;

export interface KeysetKey<TRow> {
  column: PgColumn;
  value: (row: TRow) => CursorValue;
}

/** The order most lists use: by a timestamp column, the id breaking ties. */
export function byTimeThenId<TRow extends { id: string }>(time: PgColumn, timeOf: (row: TRow) => Date, id: PgColumn): KeysetKey<TRow>[] {
  return [
    { column: time, value: timeOf },
    { column: id, value: (row) => row.id },
  ];
}

/**
 * Rows strictly beyond the cursor, in the direction of travel. A row-value comparison, so that
 * PostgreSQL walks the (sort key, id) index straight to the cursor instead of filtering.
 */
function beyond(spec: KeysetSpec<unknown>, values: CursorValue[], descending: boolean): SQL {
  const columns = sql.join(spec.keys.map((k) => k.column), sql`, `);
  const bound = sql.join(spec.keys.map((k, i) => sql`${param(values[i], k.column)}`), sql`, `);
  return descending ? sql`(${columns}) < (${bound})` : sql`(${columns}) > (${bound})`;
}

function orderFor(spec: KeysetSpec<unknown>, descending: boolean): SQL[] {
  return spec.keys.map((k) => (descending ? desc(k.column) : asc(k.column)));
}

interface Plan {
  size: number;
  backward: boolean;
  descending: boolean;
  cursorWhere?: SQL;
  hasCursor: boolean;
}

/** A forged cursor can decode to values of the wrong type: refuse it before it reaches the driver. */
function checkCursorTypes(spec: KeysetSpec<unknown>, values: CursorValue[]): CursorValue[] {
  const fits = (column: PgColumn, v: CursorValue) =>
    v === null ||
    (column.dataType === 'date' ? v instanceof Date : column.dataType === 'string' ? typeof v === 'string' : column.dataType === 'number' ? typeof v === 'number' : true);
  if (!spec.keys.every((k, i) => fits(k.column, values[i]))) throw badCursor();
  return values;
}

function plan(spec: KeysetSpec<unknown>, args: PageArgs, max: number): Plan {
  const { size, cursor, backward } = resolveWindow(args, max);
  // Walking backward reads the list in reverse order, then flips the page.
  const descending = (spec.direction === 'desc') !== backward;
  const cursorWhere = cursor ? beyond(spec, checkCursorTypes(spec, decodePageCursor(cursor, spec.keys.length)), descending) : undefined;
  return { size, backward, descending, cursorWhere, hasCursor: cursor != null };
}

function toPage<TRow>(spec: KeysetSpec<TRow>, p: Plan, rows: TRow[], total: () => Promise<number>, bounded?: number): Page<TRow> {
  const more = rows.length > p.size;
  const items = rows.slice(0, p.size);
  if (p.backward) items.reverse();
  // The whole list is in hand when the first page has no next one; else a bounded count may know it.
  const knownCount = !p.hasCursor && !more && p.size > 0 ? items.length : bounded !== undefined && bounded <= COUNT_CAP ? bounded : undefined;
  return {
    items,
    cursor: (index) => encodeCursor(spec.keys.map((k) => k.value(items[index]))),
    hasNextPage: p.backward ? p.hasCursor : more,
    hasPreviousPage: p.backward ? more : p.hasCursor,
    // A size already known costs no statement of its own.
    count: knownCount === undefined ? total : async () => knownCount,
    knownCount,
  };
}

/**
 * How many rows match, counting no further than one past the cap. Ordered like the list, so the
 * planner walks the list's index and stops, where it might otherwise scan the table hoping to
 * meet enough rows early.
 */
function boundedCount(spec: KeysetSpec<unknown>): SQL<number> {
  const order = sql.join(orderFor(spec, false), sql`, `);
  return sql<number>`(select count(*)::int from (select 1 from ${spec.table} where ${spec.where ?? sql`true`} order by ${order} limit ${COUNT_CAP + 1}) as capped)`;
}

function once<T>(fn: () => Promise<T>): () => Promise<T> {
  let promise: Promise<T> | undefined;
  return () => (promise ??= fn());
}

/**
 * One page of one list. When the caller reports it (`args.boundedCount`: REST's `count`), the same
 * statement also counts the list up to COUNT_CAP rows; GraphQL's `totalCount` counts exactly, in a
 * statement of its own, only when asked and not already known from the page.
 */
export async function keysetPage<TRow>(db: Db, spec: KeysetSpec<TRow>, args: PageArgs, max: number): Promise<Page<TRow>> {
  const p = plan(spec as KeysetSpec<unknown>, args, max);
  let rows: TRow[] = [];
  let bounded: number | undefined;
  if (p.size > 0) {
    // Written out rather than through drizzle's select builder: its building and row mapping cost
    // more than the statement on a page of 50 (see ./table-shape.ts).
    const shape = tableShape(spec.table);
    const order = sql.join(orderFor(spec as KeysetSpec<unknown>, p.descending), sql`, `);
    const counted = args.boundedCount ? sql`, ${boundedCount(spec as KeysetSpec<unknown>)} as keyset_bounded_count` : sql``;
    const found = rowsOf(
      await db.execute(sql`select ${shape.selectList}${counted}
        from ${spec.table} where ${and(spec.where, p.cursorWhere) ?? sql`true`} order by ${order} limit ${p.size + 1}`),
    );
    if (found.length && args.boundedCount) bounded = Number(found[0].keyset_bounded_count);
    rows = found.map((raw) => shape.fromDriver(raw) as TRow);
  } else {
    const [row] = await db.select({ n: boundedCount(spec as KeysetSpec<unknown>) }).from(sql`(select 1) as one`);
    bounded = row.n;
  }
  const total = once(async () => {
    const [row] = rowsOf(await db.execute(sql`select count(*)::int as n from ${spec.table} where ${spec.where ?? sql`true`}`));
    return Number(row?.n ?? 0);
  });
  return toPage(spec, p, rows, total, bounded);
}

/**
 * The same window over many parents in one statement, so a nested GraphQL connection costs one
 * query for all its parents rather than one per parent. A LATERAL subquery runs once per parent
 * id: each walks the (parent, sort key, id) index and stops after one page, so the cost follows
 * the page size, not the length of the parents' lists, and the statement stays the same size
 * however many parents there are.
 */
export async function keysetPages<TRow, TIncluded = never>(
  db: Db,
  spec: KeysetSpec<TRow> & { partition: PgColumn; parentIds: readonly string[]; parentOf: (row: TRow) => string; include?: KeysetInclude<TRow, TIncluded> },
  args: PageArgs,
  max: number,
): Promise<Map<string, Page<TRow>>> {
  const p = plan(spec as KeysetSpec<unknown>, args, max);
  const ids = [...new Set(spec.parentIds)];
  const byParent = new Map<string, TRow[]>(ids.map((id) => [id, []]));
  if (p.size > 0 && ids.length > 0) {
    // Columns come back under their TypeScript names, with the row's position in its page.
    const shape = tableShape(spec.table);
    const selection = shape.selectList;
    const order = sql.join(orderFor(spec as KeysetSpec<unknown>, p.descending), sql`, `);
    const include = spec.include;
    const included = include
      ? sql`, (select json_build_object('row', ${rowAsJson(include.table)}, 'visible', ${include.visibleWhen ?? sql`true`})
          from ${include.table} where ${include.id} = ${include.via}) as keyset_included`
      : sql``;
    const query = sql`select page.* from unnest(${param(ids)}::text[]) as parent(id)
      cross join lateral (
        select ${selection}, row_number() over (order by ${order}) as keyset_rank${included}
        from ${spec.table}
        where ${and(sql`${spec.partition} = parent.id`, spec.where, p.cursorWhere)}
        order by ${order}
        limit ${p.size + 1}
      ) as page
      order by page.keyset_rank`;
    for (const raw of rowsOf(await db.execute(query))) {
      const row = shape.fromDriver(raw) as TRow;
      const extra = raw.keyset_included as { row: Record<string, unknown>; visible: boolean } | null | undefined;
      if (include && extra) include.attach(row, rowFromJson<TIncluded>(include.table, extra.row), extra.visible);
      byParent.get(spec.parentOf(row))?.push(row);
    }
  }
  const totals = once(async () => {
    const rows = rowsOf(
      await db.execute(sql`select ${spec.partition} as parent, count(*)::int as n from ${spec.table}
        where ${and(anyOf(spec.partition, ids), spec.where)} group by ${spec.partition}`),
    );
    return new Map(rows.map((r) => [r.parent as string, Number(r.n)]));
  });
  return new Map(ids.map((id) => [id, toPage(spec, p, byParent.get(id)!, async () => (await totals()).get(id) ?? 0)]));
}
