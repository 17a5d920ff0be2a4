/**
 * The whole API surface, enumerated from the code rather than listed by hand, so that generated
 * tests cover operations added later: the REST route table and the GraphQL schema's mutations.
 */
import { getNamedType, GraphQLEnumType, GraphQLInputObjectType, GraphQLList, GraphQLNonNull, GraphQLScalarType, isInputObjectType, type GraphQLInputType } from 'graphql';
import { sql } from 'drizzle-orm';
import { schema } from '../../src/app/schema';
import { createRestRouter } from '../../src/app/routes';
import type { TestApp } from './clients';

export const restOperations = () => createRestRouter().list();

export interface MutationOperation {
  name: string;
  /** The type of its `input` argument, or null when it takes none. */
  input: GraphQLInputType | null;
  inputTypeName: string | null;
}

export function graphqlMutations(): MutationOperation[] {
  const fields = schema.getMutationType()?.getFields() ?? {};
  return Object.values(fields).map((field) => {
    const input = field.args.find((a) => a.name === 'input')?.type ?? null;
    return { name: field.name, input, inputTypeName: input ? String(input) : null };
  });
}

export { GraphQLEnumType, GraphQLInputObjectType, GraphQLList, GraphQLNonNull, GraphQLScalarType, getNamedType, isInputObjectType };

/**
 * A fingerprint of every table's content, so a refused request can be shown to have written
 * nothing. Sessions and tokens are left out: a read marks them used, which is no write of the caller's.
 */
export async function tableFingerprint(t: TestApp): Promise<string> {
  const sums = await query(t, sql.raw(await fingerprintStatement(t)));
  return sums.map((r) => `${r.t}:${r.n}:${r.h}`).sort().join('\n');
}

/** The tables do not change while a test runs: the statement is built once per app. */
const statements = new WeakMap<TestApp, Promise<string>>();
function fingerprintStatement(t: TestApp): Promise<string> {
  let statement = statements.get(t);
  if (!statement) {
    statement = query(t, sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`).then((rows) =>
      rows
        .map((r) => String(r.table_name))
        .filter((name) => !/session|token|drizzle|migration|rate_limit/.test(name))
        .map((name) => `select '${name}' as t, count(*)::text as n, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h from "${name}" x`)
        .join(' union all '),
    );
    statements.set(t, statement);
  }
  return statement;
}

/**
 * Watches for writes across many requests without hashing every table around each one. The next
 * transaction id only moves when some transaction writes, so while it stands still the last
 * fingerprint still holds, and a refused request that moved nothing wrote nothing. When it moved
 * (the request, or anything in the background, wrote), the tables are compared in full.
 */
export class WriteWatch {
  private known: { xid: string; print: string } | undefined;

  constructor(private readonly t: TestApp) {}

  /** Looks before a request: what `printSince` compares against. */
  async look(): Promise<{ xid: string; print: string }> {
    const xid = await this.nextXid();
    if (this.known?.xid !== xid) this.known = { xid, print: await tableFingerprint(this.t) };
    return this.known;
  }

  /** The tables' fingerprint now: `before`'s own when no transaction wrote since. Also the baseline for the next look. */
  async printSince(before: { xid: string; print: string }): Promise<string> {
    const xid = await this.nextXid();
    if (xid === before.xid) return before.print;
    this.known = { xid, print: await tableFingerprint(this.t) };
    return this.known.print;
  }

  private async nextXid(): Promise<string> {
    const [row] = await query(this.t, sql`select pg_snapshot_xmax(pg_current_snapshot())::text as x`);
    return String(row?.x);
  }
}

async function query(t: TestApp, statement: Parameters<TestApp['db']['execute']>[0]): Promise<Record<string, unknown>[]> {
  const result: any = await t.db.execute(statement);
  return Array.isArray(result) ? result : result.rows;
}
