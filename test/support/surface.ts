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
  const rows = await query(t, sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`);
  const tables = rows.map((r) => String(r.table_name)).filter((name) => !/session|token|drizzle|migration|rate_limit/.test(name));
  const parts = tables.map((name) => `select '${name}' as t, count(*)::text as n, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h from "${name}" x`);
  const sums = await query(t, sql.raw(parts.join(' union all ')));
  return sums.map((r) => `${r.t}:${r.n}:${r.h}`).sort().join('\n');
}

async function query(t: TestApp, statement: Parameters<TestApp['db']['execute']>[0]): Promise<Record<string, unknown>[]> {
  const result: any = await t.db.execute(statement);
  return Array.isArray(result) ? result : result.rows;
}
