/**
 * Prepared statements on PostgreSQL: drizzle's parameterised statements are prepared once per
 * connection and reused, still planned for their values each run, and left unnamed behind a
 * transaction pooler.
 */
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/client';
import { users } from '../../src/db/schema/users';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { buildUser } from '../support/factories';

const onPostgres = Boolean(process.env.DATABASE_URL);

/** One connection, so that what it has prepared can be read back on it. */
async function openSingle(url: string, pooled: boolean): Promise<Database> {
  const before = process.env.DATABASE_POOL_SIZE;
  process.env.DATABASE_POOL_SIZE = '1';
  try {
    return await openDatabase({ url, pooled });
  } finally {
    if (before === undefined) delete process.env.DATABASE_POOL_SIZE;
    else process.env.DATABASE_POOL_SIZE = before;
  }
}

const prepared = async (database: Database) =>
  (await database.db.execute(sql`select statement, generic_plans::int as generic, custom_plans::int as custom from pg_prepared_statements where statement like '%from "users" where%'`)) as unknown as {
    statement: string;
    generic: number;
    custom: number;
  }[];

describe.skipIf(!onPostgres)('prepared statements', () => {
  let base: TestDatabase;
  let direct: Database;
  let pooled: Database;
  let userId: string;

  beforeAll(async () => {
    base = await createTestDatabase();
    direct = await openSingle(base.url!, false);
    pooled = await openSingle(base.url!, true);
    userId = (await buildUser(base.db, 'Prepared Reader')).userId;
  });
  afterAll(async () => {
    await direct?.close();
    await pooled?.close();
    await base?.close();
  });

  const read = (database: Database) => database.db.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, userId));

  it('prepares a statement once and runs it again, custom-planned each time, in and out of transactions', async () => {
    const first = await read(direct);
    for (let i = 0; i < 7; i++) expect(await read(direct)).toEqual(first);
    expect(await direct.db.transaction((tx) => tx.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, userId)))).toEqual(first);
    const statements = await prepared(direct);
    expect(statements).toHaveLength(1);
    // Nine runs of one statement: never a generic plan, which searches were measured to pay dearly for.
    expect(statements[0]).toMatchObject({ generic: 0, custom: 9 });
  });

  it('leaves a bulk statement (more than 100 parameters) unprepared', async () => {
    const ids = Array.from({ length: 150 }, (_, i) => `${userId}-${i}`);
    const rows = await direct.db.select({ id: users.id }).from(users).where(inArray(users.id, [userId, ...ids]));
    expect(rows).toEqual([{ id: userId }]);
    const bulk = (await direct.db.execute(sql`select count(*)::int as n from pg_prepared_statements where statement like '%"users"."id" in%'`)) as unknown as { n: number }[];
    expect(bulk[0].n).toBe(0);
  });

  it('prepares nothing through a transaction pooler, and answers the same', async () => {
    expect(await read(pooled)).toEqual(await read(direct));
    expect(await prepared(pooled)).toEqual([]);
  });
});
