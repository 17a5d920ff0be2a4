import { index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { ts } from './columns';
import { changeRequests } from './change-requests';
import { revisions } from './revisions';
import { spaces } from './spaces';
import { users } from './users';

export type CommentStatus = 'open' | 'resolved';

/**
 * A discussion thread on a space, or on one of its change requests (`changeRequestId`), about the
 * whole, a page, a node of a page or a table cell. `revisionId` is the revision the target was
 * seen in when it was posted. `replies` is kept by a trigger; so are the open-comment counters
 * of spaces and change requests (migration 0014).
 */
export const comments = pgTable(
  'comments',
  {
    id: text().primaryKey(),
    spaceId: text()
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    changeRequestId: text().references(() => changeRequests.id, { onDelete: 'cascade' }),
    revisionId: text()
      .notNull()
      .references(() => revisions.id),
    pageId: text(),
    nodeId: text(),
    tableRecord: text(),
    tableDefinition: text(),
    /** Markdown, as posted. */
    body: text().notNull(),
    postedBy: text().references(() => users.id, { onDelete: 'set null' }),
    postedAt: ts().notNull().defaultNow(),
    editedAt: ts(),
    status: text().$type<CommentStatus>().notNull().default('open'),
    resolvedAt: ts(),
    resolvedBy: text().references(() => users.id, { onDelete: 'set null' }),
    replies: integer().notNull().default(0),
  },
  (t) => [index('comments_space_idx').on(t.spaceId, t.postedAt, t.id), index('comments_change_request_idx').on(t.changeRequestId, t.postedAt, t.id)],
);

export type CommentRow = typeof comments.$inferSelect;

export const commentReplies = pgTable(
  'comment_replies',
  {
    id: text().primaryKey(),
    commentId: text()
      .notNull()
      .references(() => comments.id, { onDelete: 'cascade' }),
    body: text().notNull(),
    postedBy: text().references(() => users.id, { onDelete: 'set null' }),
    postedAt: ts().notNull().defaultNow(),
    editedAt: ts(),
  },
  (t) => [index('comment_replies_comment_idx').on(t.commentId, t.postedAt, t.id)],
);

export type CommentReplyRow = typeof commentReplies.$inferSelect;

/** One user's emoji on a comment or a reply (`subjectId` is the reply's id, or the comment's). */
export const commentReactions = pgTable(
  'comment_reactions',
  {
    subjectId: text().notNull(),
    commentId: text()
      .notNull()
      .references(() => comments.id, { onDelete: 'cascade' }),
    replyId: text().references(() => commentReplies.id, { onDelete: 'cascade' }),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    emoji: text().notNull(),
    reactedAt: ts().notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'comment_reactions_pk', columns: [t.subjectId, t.userId, t.emoji] })],
);

export type CommentReactionRow = typeof commentReactions.$inferSelect;
