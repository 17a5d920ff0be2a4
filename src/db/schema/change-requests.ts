import { index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from './columns';
import { revisions } from './revisions';
import { spaces } from './spaces';
import { users } from './users';

import type { ChangeRequestStatus } from '../../domain/change-requests';

/**
 * Proposed edits to a space, on a branch of its content: `revisionId` moves with each edit (by
 * compare-and-set, as a space's does), from `revisionInitial`, the space's revision it branched
 * from. `revisionMergedAncestor` is the space revision last brought in by an update: with the
 * initial one, the base of the next three-way merge.
 */
export const changeRequests = pgTable(
  'change_requests',
  {
    id: text().primaryKey(),
    spaceId: text()
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    /** 1, 2, 3... within the space. */
    number: integer().notNull(),
    subject: text().notNull().default(''),
    status: text().$type<ChangeRequestStatus>().notNull().default('draft'),
    revisionId: text()
      .notNull()
      .references(() => revisions.id),
    revisionInitial: text()
      .notNull()
      .references(() => revisions.id),
    revisionMergedAncestor: text().references(() => revisions.id),
    revisionMerged: text().references(() => revisions.id),
    createdBy: text().references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts().notNull().defaultNow(),
    updatedAt: ts().notNull().defaultNow(),
    /** Open comments on the change request: kept by a trigger (migration 0014). */
    commentsOpen: integer().notNull().default(0),
  },
  (t) => [
    uniqueIndex('change_requests_number_idx').on(t.spaceId, t.number),
    // The lists: a space's change requests of one status, newest first.
    index('change_requests_status_idx').on(t.spaceId, t.status, t.createdAt, t.id),
    index('change_requests_space_idx').on(t.spaceId, t.createdAt, t.id),
    // A merge revision names the change request it merged (the platform's `mergedFrom`).
    uniqueIndex('change_requests_merged_idx').on(t.revisionMerged),
  ],
);

export type ChangeRequestRow = typeof changeRequests.$inferSelect;

/** Who contributed to a change request: its author, and everyone who edited it. */
export const changeRequestContributors = pgTable(
  'change_request_contributors',
  {
    changeRequestId: text()
      .notNull()
      .references(() => changeRequests.id, { onDelete: 'cascade' }),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    firstContributedAt: ts().notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.changeRequestId, t.userId] }), index('change_request_contributors_user_idx').on(t.userId, t.changeRequestId)],
);

