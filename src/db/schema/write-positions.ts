import { customType, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from './columns';

/** A WAL position, `16/B374D848`, read and written as text. */
const pgLsn = customType<{ data: string }>({ dataType: () => 'pg_lsn' });

/**
 * Where the primary's WAL stood after each caller's last write (src/db/replica.ts), shared by every
 * instance: a caller's reads go to the replica only once it has replayed past it. One row per user,
 * overwritten. UNLOGGED (migration 0020): a crash of the primary empties it, which only sends a
 * caller who wrote just before the crash to a replica that may lag by the crash's duration.
 */
export const writePositions = pgTable('write_positions', {
  userId: text().primaryKey(),
  lsn: pgLsn().notNull(),
  updatedAt: ts().notNull().defaultNow(),
});
