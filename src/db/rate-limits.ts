import { lt, sql } from 'drizzle-orm';
import type { Db } from './client';
import { rateLimitWindows as w } from './schema/rate-limits';

const statements = new WeakMap<Db, ReturnType<typeof prepareLease>>();

function prepareLease(db: Db) {
  return db
    .insert(w)
    .values({ bucket: sql.placeholder('bucket'), windowEnd: sql.placeholder('windowEnd'), hits: sql.placeholder('hits') })
    .onConflictDoUpdate({ target: [w.bucket, w.windowEnd], set: { hits: sql`${w.hits} + excluded.hits` } })
    .returning({ hits: w.hits })
    .prepare('quire_rate_limit_lease');
}

/**
 * Adds `hits` to a bucket's window and answers its total afterwards, counting every instance's
 * hits: one prepared statement.
 */
export async function addHits(db: Db, bucket: string, windowEnd: Date, hits: number): Promise<number> {
  let statement = statements.get(db);
  if (!statement) statements.set(db, (statement = prepareLease(db)));
  const [row] = await statement.execute({ bucket, windowEnd, hits });
  return row.hits;
}

/** Deletes the windows that ended before `now`; answers how many. */
export async function purgeRateLimitWindows(db: Db, now: Date): Promise<number> {
  const deleted = await db.delete(w).where(lt(w.windowEnd, now)).returning({ bucket: w.bucket });
  return deleted.length;
}
