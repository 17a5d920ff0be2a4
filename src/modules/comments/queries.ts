import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { byTimeThenId, keysetPage, keysetPages, type KeysetSpec } from '../../db/keyset';
import type { Page, PageArgs } from '../../domain/page';
import { organizationMembers, type MemberRow } from '../../db/schema/members';
import { commentReactions, commentReplies, comments, type CommentReplyRow, type CommentRow, type CommentStatus } from '../../db/schema/comments';

/** Where a discussion lives: a space's own, or one change request's. */
export interface DiscussionScope {
  spaceId: string;
  changeRequestId: string | null;
}

function inScope(scope: DiscussionScope): SQL {
  return scope.changeRequestId === null
    ? and(eq(comments.spaceId, scope.spaceId), isNull(comments.changeRequestId))!
    : and(eq(comments.spaceId, scope.spaceId), eq(comments.changeRequestId, scope.changeRequestId))!;
}

export async function insertComment(db: Db, values: typeof comments.$inferInsert): Promise<CommentRow> {
  const [row] = await db.insert(comments).values(values).returning();
  return row;
}

/** A comment of this discussion by id; null for one of another space or change request. */
export async function findComment(db: Db, scope: DiscussionScope, id: string): Promise<CommentRow | null> {
  const [row] = await db.select().from(comments).where(and(eq(comments.id, id), inScope(scope)));
  return row ?? null;
}

export async function findCommentById(db: Db, id: string): Promise<CommentRow | null> {
  const [row] = await db.select().from(comments).where(eq(comments.id, id));
  return row ?? null;
}

export interface CommentFilter {
  order: 'asc' | 'desc';
  status: 'all' | CommentStatus;
  targetPage?: string;
  authors: string[];
}

const commentOrder = byTimeThenId<CommentRow>(comments.postedAt, (r) => r.postedAt, comments.id);

function filtered(filter: CommentFilter): SQL[] {
  const conditions: SQL[] = [];
  if (filter.status !== 'all') conditions.push(eq(comments.status, filter.status));
  if (filter.targetPage) conditions.push(eq(comments.pageId, filter.targetPage));
  if (filter.authors.length) conditions.push(inArray(comments.postedBy, filter.authors));
  return conditions;
}

export function listComments(db: Db, scope: DiscussionScope, filter: CommentFilter, args: PageArgs, max: number): Promise<Page<CommentRow>> {
  const spec: KeysetSpec<CommentRow> = { table: comments, keys: commentOrder, direction: filter.order, where: and(inScope(scope), ...filtered(filter)) };
  return keysetPage(db, spec, args, max);
}

/**
 * The same window of many discussions in one statement: of spaces (their own discussion, outside
 * change requests), or of change requests.
 */
export function listCommentsOfMany(db: Db, kind: 'space' | 'changeRequest', ids: readonly string[], filter: CommentFilter, args: PageArgs, max: number): Promise<Map<string, Page<CommentRow>>> {
  const partition = kind === 'space' ? comments.spaceId : comments.changeRequestId;
  const where = and(...(kind === 'space' ? [isNull(comments.changeRequestId)] : []), ...filtered(filter));
  const spec = { table: comments, keys: commentOrder, direction: filter.order, where, partition, parentIds: ids, parentOf: (r: CommentRow) => (kind === 'space' ? r.spaceId : r.changeRequestId!) };
  return keysetPages(db, spec, args, max);
}

export async function updateCommentRow(db: Db | Tx, id: string, changes: Partial<Pick<CommentRow, 'body' | 'editedAt' | 'status' | 'resolvedAt' | 'resolvedBy'>>): Promise<CommentRow> {
  const [row] = await db.update(comments).set(changes).where(eq(comments.id, id)).returning();
  return row;
}

/** Deletes the comment; its replies and reactions go with it (foreign keys). */
export async function deleteCommentRow(db: Db, id: string): Promise<void> {
  await db.delete(comments).where(eq(comments.id, id));
}

export async function insertReply(db: Db, values: typeof commentReplies.$inferInsert): Promise<CommentReplyRow> {
  const [row] = await db.insert(commentReplies).values(values).returning();
  return row;
}

export async function findReply(db: Db, commentId: string, id: string): Promise<CommentReplyRow | null> {
  const [row] = await db.select().from(commentReplies).where(and(eq(commentReplies.id, id), eq(commentReplies.commentId, commentId)));
  return row ?? null;
}

export async function findReplyById(db: Db, id: string): Promise<CommentReplyRow | null> {
  const [row] = await db.select().from(commentReplies).where(eq(commentReplies.id, id));
  return row ?? null;
}

const replyOrder = byTimeThenId<CommentReplyRow>(commentReplies.postedAt, (r) => r.postedAt, commentReplies.id);

export function listReplies(db: Db, commentId: string, args: PageArgs, max: number): Promise<Page<CommentReplyRow>> {
  return keysetPage(db, { table: commentReplies, keys: replyOrder, direction: 'asc', where: eq(commentReplies.commentId, commentId) }, args, max);
}

/** The same window of replies of many comments, in one statement. */
export function listRepliesOfComments(db: Db, commentIds: readonly string[], args: PageArgs, max: number): Promise<Map<string, Page<CommentReplyRow>>> {
  const spec = { table: commentReplies, keys: replyOrder, direction: 'asc' as const, partition: commentReplies.commentId, parentIds: commentIds, parentOf: (r: CommentReplyRow) => r.commentId };
  return keysetPages(db, spec, args, max);
}

export async function updateReplyRow(db: Db | Tx, id: string, changes: Partial<Pick<CommentReplyRow, 'body' | 'editedAt'>>): Promise<CommentReplyRow> {
  const [row] = await db.update(commentReplies).set(changes).where(eq(commentReplies.id, id)).returning();
  return row;
}

export async function deleteReplyRow(db: Db, id: string): Promise<void> {
  await db.delete(commentReplies).where(eq(commentReplies.id, id));
}

/** Adds and removes one user's reactions on a comment or reply; adding one twice changes nothing. */
export async function changeReactions(
  tx: Tx,
  target: { commentId: string; replyId: string | null },
  userId: string,
  added: readonly string[],
  removed: readonly string[],
  at: Date,
): Promise<void> {
  const subjectId = target.replyId ?? target.commentId;
  if (removed.length) {
    await tx
      .delete(commentReactions)
      .where(and(eq(commentReactions.subjectId, subjectId), eq(commentReactions.userId, userId), inArray(commentReactions.emoji, [...removed])));
  }
  if (added.length) {
    const values = [...new Set(added)].map((emoji) => ({ subjectId, commentId: target.commentId, replyId: target.replyId, userId, emoji, reactedAt: at }));
    await tx.insert(commentReactions).values(values).onConflictDoNothing();
  }
}

/**
 * Members of the organization who posted a comment or a reply in the discussion, by user id:
 * the people a mention would offer.
 */
export function listCommenters(db: Db, organizationId: string, scope: DiscussionScope, args: PageArgs, max: number): Promise<Page<MemberRow>> {
  const posters = sql`(
    select ${comments.postedBy} from ${comments} where ${inScope(scope)} and ${comments.postedBy} is not null
    union
    select ${commentReplies.postedBy} from ${commentReplies} join ${comments} on ${comments.id} = ${commentReplies.commentId}
    where ${inScope(scope)} and ${commentReplies.postedBy} is not null
  )`;
  const spec: KeysetSpec<MemberRow> = {
    table: organizationMembers,
    keys: [{ column: organizationMembers.userId, value: (r) => r.userId }],
    direction: 'asc',
    where: and(eq(organizationMembers.organizationId, organizationId), sql`${organizationMembers.userId} in ${posters}`),
  };
  return keysetPage(db, spec, args, max);
}

