import { sql } from 'drizzle-orm';
import type { Db } from './client';

/**
 * Tells every instance listening on `channel` (src/db/notification-hub.ts), through PostgreSQL.
 * Send it after the write committed: a subscriber that reads what changed then finds it. The
 * payload names what changed, never what it holds: each subscriber re-reads it with its own rights.
 */
export async function notify(db: Db, channel: string, event: object): Promise<void> {
  await db.execute(sql`select pg_notify(${channel}, ${JSON.stringify(event)})`);
}
