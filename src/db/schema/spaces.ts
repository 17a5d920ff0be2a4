import { sql } from 'drizzle-orm';
import { doublePrecision, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import type { DefaultLevel } from '../../domain/permissions';
import type { EditMode, SpaceVisibility } from '../../domain/spaces';
import { collections } from './collections';
import { organizations } from './organizations';
import { ts } from './columns';


export const spaces = pgTable(
  'spaces',
  {
    id: text().primaryKey(),
    organizationId: text()
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** The collection holding the space; a deleted collection leaves its (trashed) spaces at the top level. */
    parentId: text().references(() => collections.id, { onDelete: 'set null' }),
    title: text().notNull(),
    emoji: text(),
    /** URL of an icon shown instead of the emoji. */
    icon: text(),
    visibility: text().$type<SpaceVisibility>().notNull().default('private'),
    editMode: text().$type<EditMode>().notNull().default('live'),
    language: text(),
    defaultLevel: text().$type<DefaultLevel>().default('inherit'),
    /** The current revision. Every space has one from birth; it is set in the same transaction. */
    revisionId: text().notNull(),
    position: doublePrecision().notNull(),
    createdAt: ts().notNull().defaultNow(),
    updatedAt: ts().notNull().defaultNow(),
    /** Set while the space is in the trash; restorable for seven days, then purged. */
    deletedAt: ts(),
    /**
     * Change requests of the space, all, open and draft: kept by a trigger on change_requests
     * (migration 0008), so that reading a space's counters costs no statement.
     */
    changeRequestsTotal: integer().notNull().default(0),
    changeRequestsOpen: integer().notNull().default(0),
    changeRequestsDraft: integer().notNull().default(0),
    /** How many published sites show the space; kept by triggers of the sites tables, so reads need no join. */
    publishedSites: integer().notNull().default(0),
    /** Open comments of the space's own discussion (not its change requests'): kept by a trigger (migration 0014). */
    commentsOpen: integer().notNull().default(0),
  },
  (t) => [
    index('spaces_organization_idx').on(t.organizationId, t.createdAt, t.id),
    // Lists and their counts read live spaces only: this one holds nothing else, so counting a
    // page's list needs no visit to the table.
    index('spaces_live_organization_idx').on(t.organizationId, t.createdAt, t.id).where(sql`${t.deletedAt} is null`),
    index('spaces_parent_idx').on(t.parentId, t.position, t.id),
    index('spaces_deleted_idx').on(t.deletedAt),
  ],
);

export type SpaceRow = typeof spaces.$inferSelect;
