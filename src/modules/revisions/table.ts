import { index, pgTable, text } from 'drizzle-orm/pg-core';
import { spaces } from '../spaces/table';
import { ts } from '../../db/columns';
import { users } from '../users/table';

/**
 * Immutable snapshots of a space's content. A space is born with an empty initial revision; edits,
 * merges and imports add revisions whose `parentId` points at the one they were made from.
 */
export const revisions = pgTable(
  'revisions',
  {
    id: text().primaryKey(),
    spaceId: text()
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    parentId: text(),
    /** How the revision came to be: 'initial', 'duplicate', later 'merge', 'import', ... */
    type: text().notNull(),
    createdBy: text().references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts().notNull().defaultNow(),
  },
  (t) => [index('revisions_space_idx').on(t.spaceId, t.createdAt, t.id)],
);

export type RevisionRow = typeof revisions.$inferSelect;
