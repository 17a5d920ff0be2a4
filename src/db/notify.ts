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

/** A payload sent by `notify`, or null when it is not JSON or lacks one of the `ids` it must name. */
export function parseNotification<T extends object>(payload: string, ...ids: (keyof T & string)[]): T | null {
  try {
    const event = JSON.parse(payload) as Record<string, unknown>;
    return event !== null && typeof event === 'object' && ids.every((id) => typeof event[id] === 'string') ? (event as T) : null;
  } catch {
    return null;
  }
}
