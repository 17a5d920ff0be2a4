import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from './columns';
import { spaces } from './spaces';
import { users } from './users';

/** How a revision came to be, in the platform's words. */
export const REVISION_TYPES = ['edits', 'merge', 'update', 'rollback', 'computed'] as const;
export type RevisionType = (typeof REVISION_TYPES)[number];

/**
 * Immutable snapshots of a space's content (migration 0006 makes the database refuse any UPDATE).
 * A revision names its parents and points at two content-addressed lists (src/modules/content):
 * its top-level pages and its files. Revisions share every object they have in common, so one
 * edit stores only what it changed.
 */
export const revisions = pgTable(
  'revisions',
  {
    id: text().primaryKey(),
    spaceId: text()
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    parents: text().array().notNull().default(sql`'{}'::text[]`),
    type: text().$type<RevisionType>().notNull(),
    /** Hash of the list of top-level pages; null for none. */
    pages: text(),
    /** Hash of the list of files; null for none. */
    files: text(),
    variables: jsonb().$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    createdBy: text().references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts().notNull().defaultNow(),
  },
  (t) => [index('revisions_space_idx').on(t.spaceId, t.createdAt, t.id)],
);

export type RevisionRow = typeof revisions.$inferSelect;
