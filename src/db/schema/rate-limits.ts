import { index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { ts } from './columns';

/**
 * Requests counted per caller and fixed window, shared by every instance on this database. A row
 * per window (not one per caller, reset in place) so that counting is a single UPSERT and old
 * windows are deleted in bulk by the purge job. The migration makes it UNLOGGED: counts lost in
 * a crash only let callers in a little early, and the table is written on most windows.
 */
export const rateLimitWindows = pgTable(
  'rate_limit_windows',
  {
    /** `token:<hash>`, `ip:<address>` or `auth:<address>` (failed authentications). */
    bucket: text().notNull(),
    windowEnd: ts().notNull(),
    hits: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.windowEnd] }), index().on(t.windowEnd)],
);
