/** Statement latency on PostgreSQL: every statement drizzle sends is timed once, failures included, results untouched. */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/client';
import { users } from '../../src/db/schema/users';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { buildUser } from '../support/factories';

const onPostgres = Boolean(process.env.DATABASE_URL);

describe.skipIf(!onPostgres)('timed statements', () => {
  let base: TestDatabase;
  let timed: Database;
  const timings: { seconds: number; failed: boolean }[] = [];

  beforeAll(async () => {
    base = await createTestDatabase();
    timed = await openDatabase({ url: base.url!, onStatement: (seconds, failed) => timings.push({ seconds, failed }) });
  });
  afterAll(async () => {
    await timed?.close();
    await base?.close();
  });

  it('times plain, selected and transactional statements and a failing one, and changes no result', async () => {
    const actor = await buildUser(base.db, 'Timed Reader');
    timings.length = 0;
    const rows = await timed.db.select({ id: users.id, email: users.email }).from(users).where(sql`${users.id} = ${actor.userId}`);
    expect(rows).toEqual([{ id: actor.userId, email: actor.email }]);
    const inTx = await timed.db.transaction(async (tx) => {
      const nested = await tx.transaction(async (inner) => inner.execute(sql`select 2 as two`));
      return [...nested, ...(await tx.execute(sql`select 1 as one`))];
    });
    expect(inTx).toEqual([{ two: 2 }, { one: 1 }]);
    await expect(timed.db.execute(sql`select * from no_such_table`)).rejects.toThrow();
    expect(timings.map((t) => t.failed)).toEqual([false, false, false, true]);
    expect(timings.every((t) => t.seconds > 0 && t.seconds < 60)).toBe(true);
  });
});
