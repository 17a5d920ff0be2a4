/**
 * Decides, from PostgreSQL's own parser (libpg-query), whether a SQL statement reads or writes only
 * rows of one organization. A table of the statement is *pinned* when one of its tenant keys (its
 * `organization_id`, its primary key, or a foreign key to a per-organization parent) is equal, in
 * every row the statement may touch, to values the statement was given: parameters and constants,
 * or columns of another pinned table (`c.id = s.parent_id` with `s` pinned). Equalities count where
 * they restrict rows: in WHERE and inner joins, in a LEFT JOIN's ON only for its right side, under OR
 * only when every branch binds the same column, never under NOT. `x = any($1)`, `x in ($1, $2)`,
 * `x in (select ...)` of pinned values, VALUES rows, `unnest($1)` and derived tables whose output
 * columns are pinned all carry the pin along.
 */
import { loadModule, parseSync } from 'libpg-query';
import { sql } from 'drizzle-orm';
import { perOrganizationTables, TABLE_TENANCY } from '../../src/db/tenancy';
import type { Db } from '../../src/db/client';

type Node = any;

export interface TableInfo {
  columns: Set<string>;
  /** Column sets that, each column bound, pin the rows to one organization (any one set suffices). */
  keys: string[][];
  /** Foreign keys, each with the table it references. */
  references: { columns: string[]; table: string }[];
  perOrganization: boolean;
}
export type Catalog = Map<string, TableInfo>;

/**
 * The tables of the migrated database with their columns and keys: the classification of
 * src/db/tenancy.ts, the primary key and unique indexes (one row: one organization), the foreign
 * keys to per-organization tables and the parent keys the classification names.
 */
export async function loadCatalog(db: Db): Promise<Catalog> {
  const rows = (r: any): Record<string, any>[] => (Array.isArray(r) ? r : r.rows);
  const names = (value: unknown): string[] => (typeof value === 'string' ? value.replace(/[{}]/g, '').split(',') : (value as string[]));
  const columns = rows(await db.execute(sql`select table_name, column_name from information_schema.columns where table_schema = 'public'`));
  // Unique indexes on plain columns and not partial: equal values there name one row.
  const unique = rows(
    await db.execute(sql`select t.relname as table_name,
        array(select a.attname::text from unnest(i.indkey) with ordinality k(attnum, n) join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum order by k.n) as columns
      from pg_index i join pg_class t on t.oid = i.indrelid join pg_namespace ns on ns.oid = t.relnamespace
      where ns.nspname = 'public' and i.indisunique and i.indexprs is null and i.indpred is null`),
  );
  const foreign = rows(
    await db.execute(sql`select t.relname as table_name, r.relname as target,
        array(select a.attname::text from unnest(c.conkey) with ordinality k(attnum, n) join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.attnum order by k.n) as columns
      from pg_constraint c join pg_class t on t.oid = c.conrelid join pg_class r on r.oid = c.confrelid join pg_namespace ns on ns.oid = t.relnamespace
      where ns.nspname = 'public' and c.contype = 'f'`),
  );
  const perOrganization = new Set(perOrganizationTables());
  const catalog: Catalog = new Map();
  for (const { table_name, column_name } of columns) {
    const info = catalog.get(table_name) ?? { columns: new Set<string>(), keys: [], references: [], perOrganization: perOrganization.has(table_name) };
    info.columns.add(column_name);
    catalog.set(table_name, info);
  }
  for (const [name, info] of catalog) {
    const tenancy = TABLE_TENANCY[name];
    if (info.perOrganization && info.columns.has('organization_id')) info.keys.push(['organization_id']);
    if (tenancy?.scope === 'parent') for (const key of tenancy.keys ?? []) info.keys.push([key]);
  }
  for (const u of unique) catalog.get(u.table_name)?.keys.push(names(u.columns));
  for (const f of foreign) {
    const info = catalog.get(f.table_name);
    if (!info) continue;
    info.references.push({ columns: names(f.columns), table: f.target });
    if (info.perOrganization && perOrganization.has(f.target)) info.keys.push(names(f.columns));
  }
  return catalog;
}

let loaded: Promise<void> | undefined;
/** The parser is WebAssembly: load it once before `analyzeStatement`. */
export const loadParser = () => (loaded ??= loadModule());

export interface Verdict {
  /** Per-organization tables the statement names, once each. */
  tables: string[];
  /** Those of them with at least one reference that no tenant key pins. */
  unpinned: string[];
}

export function analyzeStatement(text: string, catalog: Catalog): Verdict {
  const analysis = new Analysis(catalog);
  for (const { stmt } of parseSync(text).stmts ?? []) analysis.statement(stmt, null);
  return analysis.verdict();
}

interface Range {
  id: number;
  name: string;
  table?: string;
  /** Output of a derived table or CTE. */
  output?: Output;
  /** Column names of a function in FROM or of a pseudo relation. */
  columns?: string[];
}
interface Block {
  ranges: Range[];
  parent: Block | null;
  ctes: Map<string, Output>;
}
interface Output {
  byName(name: string): string[] | null;
  byIndex(index: number): string[] | null;
  names(): string[];
}
interface Rule {
  needs: string[];
  gives: string;
}
/** Ranges whose values an equality may bind; null is any. */
type Targets = Set<number> | null;

const str = (node: Node): string | undefined => node?.String?.sval;
const unwrap = (node: Node): Node => (node?.TypeCast ? unwrap(node.TypeCast.arg) : node?.CollateClause ? unwrap(node.CollateClause.arg) : node);
const opName = (expr: Node): string | undefined => str(expr?.name?.at(-1));

class Analysis {
  private nextId = 0;
  private rules: Rule[] = [];
  private tableRanges: Range[] = [];
  private derivedValues = new Set<string>();

  constructor(private readonly catalog: Catalog) {}

  verdict(): Verdict {
    const bound = new Set<string>();
    const isBound = (value: string) => bound.has(value) || bound.has(value.replace(/\.[^.]*$/, '.*'));
    for (let changed = true; changed; ) {
      changed = false;
      for (const rule of this.rules) {
        if (!isBound(rule.gives) && rule.needs.every(isBound)) {
          bound.add(rule.gives);
          changed = true;
        }
      }
    }
    const perOrganization = this.tableRanges.filter((r) => this.catalog.get(r.table!)?.perOrganization);
    const unique = (names: string[]) => [...new Set(names)].sort();
    return {
      tables: unique(perOrganization.map((r) => r.table!)),
      unpinned: unique(perOrganization.filter((r) => !bound.has(`${r.id}.*`)).map((r) => r.table!)),
    };
  }

  statement(stmt: Node, parent: Block | null): Output | null {
    if (stmt.SelectStmt) return this.select(stmt.SelectStmt, parent);
    if (stmt.InsertStmt) this.insert(stmt.InsertStmt, parent);
    else if (stmt.UpdateStmt) this.update(stmt.UpdateStmt, parent);
    else if (stmt.DeleteStmt) this.delete(stmt.DeleteStmt, parent);
    return null;
  }

  private block(parent: Block | null, withClause?: Node): Block {
    const block: Block = { ranges: [], parent, ctes: new Map() };
    for (const cte of withClause?.ctes ?? []) {
      const { ctename, ctequery, aliascolnames } = cte.CommonTableExpr;
      const query = ctequery.SelectStmt;
      if (withClause.recursive && query?.op === 'SETOP_UNION') {
        // By induction: the rows the recursive branch reads from the CTE itself are taken to be
        // pinned as the base branch's are; the CTE is pinned if the recursive branch keeps them so.
        const base = renamed(this.select(query.larg, block), aliascolnames);
        block.ctes.set(ctename, base);
        const step = renamed(this.select(query.rarg, block), aliascolnames);
        const both = (a: string[] | null, b: string[] | null) => (a && b ? [...a, ...b] : null);
        block.ctes.set(ctename, { byName: (n) => both(base.byName(n), step.byName(n)), byIndex: (i) => both(base.byIndex(i), step.byIndex(i)), names: base.names });
        continue;
      }
      const output = this.statement(ctequery, block);
      if (output) block.ctes.set(ctename, renamed(output, aliascolnames));
    }
    return block;
  }

  private select(s: Node, parent: Block | null): Output {
    if (s.op && s.op !== 'SETOP_NONE') {
      const block = this.block(parent, s.withClause);
      const arms = [this.select(s.larg, block), this.select(s.rarg, block)];
      const all = (pick: (o: Output) => string[] | null) => {
        const needs = arms.map(pick);
        return needs.every(Boolean) ? needs.flat() as string[] : null;
      };
      return { byName: (name) => all((o) => o.byName(name)), byIndex: (i) => all((o) => o.byIndex(i)), names: () => arms[0].names() };
    }
    const block = this.block(parent, s.withClause);
    if (s.valuesLists) {
      const rows: Node[][] = s.valuesLists.map((row: Node) => row.List.items);
      const byIndex = (i: number) => {
        const needs = rows.map((row) => this.needs(row[i], block));
        return needs.every(Boolean) ? (needs.flat() as string[]) : null;
      };
      return { byIndex, byName: (name) => (/^column\d+$/.test(name) ? byIndex(Number(name.slice(6)) - 1) : null), names: () => rows[0].map((_, i) => `column${i + 1}`) };
    }
    for (const item of s.fromClause ?? []) this.fromItem(item, block);
    this.conditions(s.whereClause, block, null);
    this.conditions(s.havingClause, block, null);
    for (const part of [s.groupClause, s.sortClause, s.distinctClause, s.limitCount, s.limitOffset]) this.needs(part, block);
    const targets: Node[] = (s.targetList ?? []).map((t: Node) => t.ResTarget);
    const targetNeeds = targets.map((t) => this.needs(t.val, block));
    const nameOf = (t: Node): string | undefined => t.name ?? str(unwrap(t.val)?.ColumnRef?.fields?.at(-1)) ?? str(unwrap(t.val)?.FuncCall?.funcname?.at(-1));
    const star = targets.some((t) => unwrap(t.val)?.ColumnRef?.fields?.at(-1)?.A_Star);
    return {
      byIndex: (i) => (star ? null : (targetNeeds[i] ?? null)),
      byName: (name) => {
        const index = targets.findIndex((t) => nameOf(t) === name);
        if (index >= 0) return targetNeeds[index];
        const value = star ? this.resolve([name], block) : null;
        return value ? [value] : null;
      },
      names: () => targets.map((t) => nameOf(t) ?? '?column?'),
    };
  }

  private insert(s: Node, parent: Block | null): void {
    const block = this.block(parent, s.withClause);
    const target = this.tableRange(s.relation, block);
    const cols: string[] = (s.cols ?? []).map((c: Node) => c.ResTarget.name);
    const source = s.selectStmt ? this.select(s.selectStmt.SelectStmt, block) : null;
    cols.forEach((col, i) => {
      const needs = source?.byIndex(i);
      if (needs) this.rules.push({ needs, gives: `${target.id}.${col}` });
    });
    // The row ON CONFLICT updates is the one the insert collided with: the same keys.
    const conflict = s.onConflictClause;
    if (conflict) {
      const excluded = this.range(block, 'excluded', { columns: cols });
      this.rules.push({ needs: [`${target.id}.*`], gives: `${excluded.id}.*` });
      for (const t of conflict.targetList ?? []) this.needs(t.ResTarget.val, block);
      this.conditions(conflict.whereClause, block, null);
    }
    this.needs(s.returningClause, block);
  }

  private update(s: Node, parent: Block | null): void {
    const block = this.block(parent, s.withClause);
    this.tableRange(s.relation, block);
    for (const item of s.fromClause ?? []) this.fromItem(item, block);
    this.conditions(s.whereClause, block, null);
    for (const t of s.targetList ?? []) this.needs(t.ResTarget.val, block);
    this.needs(s.returningClause, block);
  }

  private delete(s: Node, parent: Block | null): void {
    const block = this.block(parent, s.withClause);
    this.tableRange(s.relation, block);
    for (const item of s.usingClause ?? []) this.fromItem(item, block);
    this.conditions(s.whereClause, block, null);
    this.needs(s.returningClause, block);
  }

  private range(block: Block, name: string, fields: Omit<Range, 'id' | 'name'>): Range {
    const range: Range = { id: this.nextId++, name, ...fields };
    block.ranges.push(range);
    return range;
  }

  private tableRange(rv: Node, block: Block): Range {
    const cte = rv.schemaname ? undefined : lookupCte(block, rv.relname);
    const name = rv.alias?.aliasname ?? rv.relname;
    if (cte) return this.range(block, name, { output: renamed(cte, rv.alias?.colnames) });
    const range = this.range(block, name, { table: rv.relname });
    this.tableRanges.push(range);
    for (const key of this.catalog.get(rv.relname)?.keys ?? []) this.rules.push({ needs: key.map((c) => `${range.id}.${c}`), gives: `${range.id}.*` });
    return range;
  }

  /** Registers the ranges of one FROM item; answers their ids, for the sides of an outer join. */
  private fromItem(item: Node, block: Block): Set<number> {
    if (item.RangeVar) return new Set([this.tableRange(item.RangeVar, block).id]);
    if (item.RangeSubselect) {
      const { subquery, alias } = item.RangeSubselect;
      const output = this.select(subquery.SelectStmt, block);
      return new Set([this.range(block, alias?.aliasname ?? '?subquery?', { output: renamed(output, alias?.colnames) }).id]);
    }
    if (item.RangeFunction) {
      const { functions, alias, coldeflist } = item.RangeFunction;
      const calls: Node[] = functions.map((f: Node) => f.List.items[0]);
      const needs = calls.map((call) => this.needs(call, block));
      const names = alias?.colnames?.map(str) ?? coldeflist?.map((c: Node) => c.ColumnDef.colname) ?? [];
      const range = this.range(block, alias?.aliasname ?? str(calls[0]?.FuncCall?.funcname?.at(-1)) ?? '?function?', { columns: names.length ? names : [alias?.aliasname ?? ''] });
      if (needs.every(Boolean)) this.rules.push({ needs: needs.flat() as string[], gives: `${range.id}.*` });
      return new Set([range.id]);
    }
    if (item.JoinExpr) {
      const { jointype, larg, rarg, quals, usingClause } = item.JoinExpr;
      const left = this.fromItem(larg, block);
      const right = this.fromItem(rarg, block);
      const targets: Targets = jointype === 'JOIN_LEFT' ? right : jointype === 'JOIN_RIGHT' ? left : jointype === 'JOIN_FULL' ? new Set() : null;
      this.conditions(quals, block, targets);
      for (const column of (usingClause ?? []).map(str)) {
        const l = this.resolveIn(block.ranges.filter((r) => left.has(r.id)), column);
        const r = this.resolveIn(block.ranges.filter((r) => right.has(r.id)), column);
        if (l && r) this.equal(l, r, targets);
      }
      return new Set([...left, ...right]);
    }
    this.needs(item, block);
    return new Set();
  }

  /** Adds what a condition in a restricting position binds. */
  private conditions(expr: Node, block: Block, targets: Targets): void {
    if (!expr) return;
    const bool = expr.BoolExpr;
    if (bool?.boolop === 'AND_EXPR') {
      for (const arg of bool.args) this.conditions(arg, block, targets);
      return;
    }
    if (bool?.boolop === 'OR_EXPR') {
      const arms: Map<string, string[]>[] = bool.args.map((arm: Node) => this.directBindings(arm, block));
      for (const [value, needs] of arms[0]) {
        if (arms.every((arm) => arm.has(value))) this.bind(value, [...needs, ...arms.slice(1).flatMap((arm) => arm.get(value)!)], targets);
      }
      // `id = $1 or hostname = $2`: each branch pins the table by a key of its own.
      for (const range of this.tableRanges) {
        const keys = this.catalog.get(range.table!)?.keys ?? [];
        const pinning = arms.map((arm) => keys.find((key) => key.every((c) => arm.has(`${range.id}.${c}`))));
        if (pinning.every(Boolean)) {
          const needs = arms.flatMap((arm, i) => pinning[i]!.flatMap((c) => arm.get(`${range.id}.${c}`)!));
          this.bind(`${range.id}.*`, needs, targets);
        }
      }
      return;
    }
    const a = expr.A_Expr;
    if (a?.kind === 'AEXPR_OP' && opName(a) === '=') {
      const l = unwrap(a.lexpr);
      const r = unwrap(a.rexpr);
      if (l?.RowExpr && r?.RowExpr && l.RowExpr.args.length === r.RowExpr.args.length) {
        l.RowExpr.args.forEach((arg: Node, i: number) => this.equality(arg, r.RowExpr.args[i], block, targets));
      } else this.equality(l, r, block, targets);
      return;
    }
    if ((a?.kind === 'AEXPR_OP_ANY' || a?.kind === 'AEXPR_IN') && opName(a) === '=') {
      const value = this.column(a.lexpr, block);
      const needs = this.needs(a.rexpr, block);
      if (value && needs) this.bind(value, needs, targets);
      return;
    }
    const link = expr.SubLink;
    if (link?.subLinkType === 'ANY_SUBLINK' && (!link.operName || str(link.operName.at(-1)) === '=')) {
      const output = this.select(link.subselect.SelectStmt, block);
      const tests: Node[] = unwrap(link.testexpr)?.RowExpr?.args ?? [link.testexpr];
      tests.forEach((test, i) => {
        const value = this.column(test, block);
        const needs = output.byIndex(i);
        if (value && needs) this.bind(value, needs, targets);
      });
      return;
    }
    this.needs(expr, block);
  }

  /** What one branch of an OR binds on its own, as column -> values it needs; nested subqueries are analyzed. */
  private directBindings(expr: Node, block: Block): Map<string, string[]> {
    const found = new Map<string, string[]>();
    const visit = (e: Node) => {
      if (e?.BoolExpr?.boolop === 'AND_EXPR') return e.BoolExpr.args.forEach(visit);
      const a = e?.A_Expr;
      if (a && ['AEXPR_OP', 'AEXPR_OP_ANY', 'AEXPR_IN'].includes(a.kind) && opName(a) === '=') {
        for (const [col, other] of a.kind === 'AEXPR_OP' ? [[a.lexpr, a.rexpr], [a.rexpr, a.lexpr]] : [[a.lexpr, a.rexpr]]) {
          const value = this.column(col, block);
          const needs = this.needs(other, block);
          if (value && needs && !needs.includes(value)) found.set(value, needs);
        }
        return;
      }
      this.needs(e, block);
    };
    visit(expr);
    return found;
  }

  private equality(l: Node, r: Node, block: Block, targets: Targets): void {
    const left = this.column(l, block);
    const right = this.column(r, block);
    const leftNeeds = this.needs(l, block);
    const rightNeeds = this.needs(r, block);
    if (left && rightNeeds) this.bind(left, rightNeeds, targets);
    if (right && leftNeeds) this.bind(right, leftNeeds, targets);
  }

  private equal(a: string, b: string, targets: Targets): void {
    this.bind(a, [b], targets);
    this.bind(b, [a], targets);
  }

  private bind(value: string, needs: string[], targets: Targets): void {
    if (targets && !targets.has(Number(value.split('.')[0]))) return;
    this.rules.push({ needs, gives: value });
  }

  /** The value of a bare column reference (through casts), or null. */
  private column(expr: Node, block: Block): string | null {
    const fields = unwrap(expr)?.ColumnRef?.fields;
    return fields ? this.resolve(fields.map((f: Node) => str(f) ?? '*'), block) : null;
  }

  /**
   * The column values an expression depends on (empty: parameters and constants only), or null when
   * it depends on something this analysis cannot follow. Subqueries inside it are analyzed.
   */
  private needs(expr: Node, block: Block): string[] | null {
    if (expr === undefined || expr === null || typeof expr !== 'object') return [];
    if (Array.isArray(expr)) return merge(expr.map((e) => this.needs(e, block)));
    if (expr.ColumnRef) {
      const value = this.column(expr, block);
      return value ? [value] : null;
    }
    if (expr.SubLink) {
      const { subLinkType, subselect, testexpr } = expr.SubLink;
      const output = this.select(subselect.SelectStmt, block);
      const test = this.needs(testexpr, block);
      if (subLinkType === 'EXPR_SUBLINK' || subLinkType === 'ARRAY_SUBLINK') return output.byIndex(0);
      return test;
    }
    if (expr.SelectStmt) return this.select(expr.SelectStmt, block).byIndex(0);
    if (expr.SetToDefault) return null;
    return merge(Object.values(expr).map((e) => this.needs(e, block)));
  }

  private resolve(fields: string[], block: Block): string | null {
    const column = fields.at(-1)!;
    if (column === '*') return null;
    for (let b: Block | null = block; b; b = b.parent) {
      if (fields.length >= 2) {
        const range = b.ranges.findLast((r) => r.name === fields.at(-2));
        if (range) return this.valueOf(range, column);
      } else {
        const value = this.resolveIn(b.ranges, column);
        if (value) return value;
      }
    }
    return null;
  }

  private resolveIn(ranges: Range[], column: string): string | null {
    const range = ranges.find((r) =>
      r.table ? this.catalog.get(r.table)?.columns.has(column) : r.output ? r.output.names().includes(column) || r.output.byName(column) !== null : r.columns?.includes(column),
    );
    return range ? this.valueOf(range, column) : null;
  }

  private valueOf(range: Range, column: string): string {
    const value = `${range.id}.${column}`;
    if (range.output && !this.derivedValues.has(value)) {
      this.derivedValues.add(value);
      const needs = range.output.byName(column);
      if (needs) this.rules.push({ needs, gives: value });
    }
    return value;
  }
}

function merge(parts: (string[] | null)[]): string[] | null {
  return parts.every(Boolean) ? (parts.flat() as string[]) : null;
}

function lookupCte(block: Block | null, name: string): Output | undefined {
  for (let b = block; b; b = b.parent) if (b.ctes.has(name)) return b.ctes.get(name);
  return undefined;
}

/** An output seen through an alias' column names (`as k(id)`). */
function renamed(output: Output, colnames?: Node[]): Output {
  const names = colnames?.map(str) as string[] | undefined;
  if (!names?.length) return output;
  return {
    byIndex: output.byIndex,
    byName: (name) => (names.includes(name) ? output.byIndex(names.indexOf(name)) : output.byName(name)),
    names: () => names,
  };
}
