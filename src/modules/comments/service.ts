import { requireViewer, type RequestContext } from '../../context/request-context';
import { assertLive, refusedAsNull, watchChannel } from '../../context/live';
import { ForbiddenError, NotFoundError, ValidationError, hiddenAsMissing } from '../../domain/errors';
import type { Page, PageArgs } from '../../domain/page';
import { parseInput } from '../../domain/validate';
import { newId } from '../../lib/ids';
import { getChangeRequest, getChangeRequestById } from '../change-requests/service';
import type { ChangeRequestRow } from '../../db/schema/change-requests';
import { contentAt, type SpaceContent } from '../content/service';
import type { MemberRow } from '../../db/schema/members';
import { getSpace } from '../spaces/service';
import type { SpaceRow } from '../../db/schema/spaces';
import { userById } from '../users/service';
import type { UserRow } from '../../db/schema/users';
import {
  commentListSchema,
  commentPostSchema,
  commentUpdateSchema,
  formatSchema,
  replyPostSchema,
  replyUpdateSchema,
  type CommentListInput,
  type CommentPostInput,
  type CommentUpdateInput,
  type FormatInput,
  type ReplyPostInput,
  type ReplyUpdateInput,
} from './input';
import { reactionsBySubject } from './loaders';
import { COMMENT_CHANNEL, parseCommentEvent, publishCommentEvent, type CommentEventKind } from './live';
import {
  changeReactions,
  deleteCommentRow,
  deleteReplyRow,
  findComment,
  findCommentById,
  findReply,
  findReplyById,
  insertComment,
  insertReply,
  listCommenters as listCommenterRows,
  listComments as listCommentRows,
  listCommentsOfMany,
  listReplies as listReplyRows,
  listRepliesOfComments,
  updateCommentRow,
  updateReplyRow,
  type DiscussionScope,
} from './queries';
import type { CommentReactionRow, CommentReplyRow, CommentRow } from '../../db/schema/comments';

export type BodyFormat = 'markdown' | 'document';

/** A space's own discussion, or a change request's, as the caller may read it. */
export interface Discussion {
  space: SpaceRow;
  changeRequest: ChangeRequestRow | null;
  scope: DiscussionScope;
}

export interface CommentInDiscussion {
  discussion: Discussion;
  row: CommentRow;
  format: BodyFormat;
}

export interface ReplyInDiscussion {
  comment: CommentInDiscussion;
  row: CommentReplyRow;
  format: BodyFormat;
}

/** The discussion of a space (no change request) or of one of its change requests, by id or number. */
export async function getDiscussion(ctx: RequestContext, spaceId: string, changeRequest?: string): Promise<Discussion> {
  if (changeRequest === undefined) {
    const space = await getSpace(ctx, spaceId);
    return { space, changeRequest: null, scope: { spaceId: space.id, changeRequestId: null } };
  }
  const { space, row } = await getChangeRequest(ctx, spaceId, changeRequest);
  return { space, changeRequest: row, scope: { spaceId: space.id, changeRequestId: row.id } };
}

/** The revision the discussion is about now: the space's, or the change request's. */
export const currentRevisionOf = (d: Discussion) => d.changeRequest?.revisionId ?? d.space.revisionId;

const CONTENTS = Symbol('discussionContents');

/**
 * A revision's content, read once per request however many comments ask for it. Kept with the
 * request's loaders, so that a subscription, whose loaders are renewed at each event, keeps none.
 */
function contentOnce(ctx: RequestContext, space: SpaceRow, revisionId: string): Promise<SpaceContent> {
  const byRevision = ctx.loaders.get(CONTENTS, () => new Map<string, Promise<SpaceContent>>());
  let content = byRevision.get(revisionId);
  if (!content) byRevision.set(revisionId, (content = contentAt(ctx, space, revisionId)));
  return content;
}

/** The content the discussion is about now, to resolve targets and links. */
export function discussionContent(ctx: RequestContext, d: Discussion): Promise<SpaceContent> {
  return contentOnce(ctx, d.space, currentRevisionOf(d));
}

/** The content of the revision a comment was posted on: where an outdated target is still found. */
export function contentWhenPosted(ctx: RequestContext, c: CommentInDiscussion): Promise<SpaceContent> {
  return contentOnce(ctx, c.discussion.space, c.row.revisionId);
}

async function assertMayComment(ctx: RequestContext, d: Discussion): Promise<void> {
  await ctx.authz.assert('space:comment', d.space, 'Your role does not let you comment in this space: it takes the comment role or more');
}

/** What the caller may do with a comment or reply: the rules every action below enforces. */
export async function discussionPermissions(ctx: RequestContext, d: Discussion, postedBy: string | null) {
  const viewer = requireViewer(ctx);
  const [comment, admin] = await Promise.all([ctx.authz.can('space:comment', d.space), ctx.authz.can('space:admin', d.space)]);
  const own = postedBy !== null && postedBy === viewer.user.id;
  return { view: true, edit: own && comment, reply: comment, delete: (own && comment) || admin };
}

/** The body format a read asks for (`document` when absent); a bad value is a 400. */
export const withFormat = (query: FormatInput | undefined): BodyFormat => parseInput(formatSchema, query ?? {}).format;

export async function listComments(ctx: RequestContext, d: Discussion, query: CommentListInput, args: PageArgs, max: number): Promise<Page<CommentInDiscussion>> {
  const filter = parseInput(commentListSchema, query);
  const page = await listCommentRows(ctx.db, d.scope, filter, args, max);
  return { ...page, items: page.items.map((row) => ({ discussion: d, row, format: filter.format })) };
}

/**
 * The same window of comments of many discussions the caller already reads (spaces' own, or
 * change requests'), in one statement: what nested GraphQL lists use.
 */
export async function listCommentsOf(ctx: RequestContext, discussions: readonly Discussion[], query: CommentListInput, args: PageArgs, max: number): Promise<Map<string, Page<CommentInDiscussion>>> {
  const filter = parseInput(commentListSchema, query);
  const kind = discussions[0]?.changeRequest ? 'changeRequest' : 'space';
  const key = (d: Discussion) => d.changeRequest?.id ?? d.space.id;
  const byKey = new Map(discussions.map((d) => [key(d), d]));
  const pages = await listCommentsOfMany(ctx.db, kind, [...byKey.keys()], filter, args, max);
  return new Map([...pages].map(([id, page]) => [id, { ...page, items: page.items.map((row) => ({ discussion: byKey.get(id)!, row, format: filter.format })) }]));
}

export async function getComment(ctx: RequestContext, d: Discussion, commentId: string, query?: FormatInput): Promise<CommentInDiscussion> {
  const format = withFormat(query);
  const row = await findComment(ctx.db, d.scope, commentId);
  if (!row) throw new NotFoundError('Comment');
  return { discussion: d, row, format };
}

/** A comment by id alone (GraphQL's node lookup), when the caller may read its space. */
export async function getCommentById(ctx: RequestContext, id: string): Promise<CommentInDiscussion> {
  requireViewer(ctx);
  const row = await findCommentById(ctx.db, id);
  if (!row) throw new NotFoundError('Comment');
  const discussion = await hiddenAsMissing(
    row.changeRequestId
      ? getChangeRequestById(ctx, row.changeRequestId).then(({ space, row: cr }) => ({ space, changeRequest: cr, scope: { spaceId: space.id, changeRequestId: cr.id } }))
      : getDiscussion(ctx, row.spaceId),
    'Comment',
  );
  return { discussion, row, format: 'markdown' };
}

export async function postComment(ctx: RequestContext, d: Discussion, input: CommentPostInput): Promise<CommentInDiscussion> {
  const viewer = requireViewer(ctx);
  await assertMayComment(ctx, d);
  const parsed = parseInput(commentPostSchema, input);
  const revisionId = currentRevisionOf(d);
  if (parsed.page !== undefined) {
    const content = await discussionContent(ctx, d);
    if (!content.tree.byId.has(parsed.page)) throw new ValidationError(`page: no page ${parsed.page} in ${d.changeRequest ? 'this change request' : 'this space'}`, ['page']);
  }
  const row = await insertComment(ctx.db, {
    id: newId(),
    spaceId: d.space.id,
    changeRequestId: d.changeRequest?.id ?? null,
    revisionId,
    pageId: parsed.page ?? null,
    nodeId: parsed.node ?? null,
    tableRecord: parsed.tableCell?.record ?? null,
    tableDefinition: parsed.tableCell?.definition ?? null,
    body: parsed.body.markdown,
    postedBy: viewer.user.id,
    postedAt: ctx.now(),
    status: 'open',
  });
  await publish(ctx, d, row, 'added');
  return { discussion: d, row, format: 'document' };
}

/**
 * Edits, resolves or reopens a comment and changes the caller's reactions, in one transaction:
 * every part is checked before anything is written.
 */
export async function updateComment(ctx: RequestContext, current: CommentInDiscussion, input: CommentUpdateInput): Promise<CommentInDiscussion> {
  const viewer = requireViewer(ctx);
  const { discussion: d, row: { id: commentId } } = current;
  const parsed = parseInput(commentUpdateSchema, input);
  await assertMayComment(ctx, d);
  const permissions = await discussionPermissions(ctx, d, current.row.postedBy);
  if (parsed.body && !permissions.edit) throw new ForbiddenError('Only its author may edit a comment');
  const now = ctx.now();
  const changes: Parameters<typeof updateCommentRow>[2] = {};
  if (parsed.body && parsed.body.markdown !== current.row.body) Object.assign(changes, { body: parsed.body.markdown, editedAt: now });
  if (parsed.resolved === true && current.row.status === 'open') Object.assign(changes, { status: 'resolved', resolvedAt: now, resolvedBy: viewer.user.id });
  if (parsed.resolved === false && current.row.status === 'resolved') Object.assign(changes, { status: 'open', resolvedAt: null, resolvedBy: null });
  const row = await ctx.db.transaction(async (tx) => {
    await changeReactions(tx, { commentId, replyId: null }, viewer.user.id, parsed.addedReactions ?? [], parsed.removedReactions ?? [], now);
    return Object.keys(changes).length ? updateCommentRow(tx, commentId, changes) : current.row;
  });
  const kind: CommentEventKind = changes.status === 'resolved' ? 'resolved' : changes.status === 'open' ? 'reopened' : 'edited';
  await publish(ctx, d, row, kind);
  return { discussion: d, row, format: 'document' };
}

export async function deleteComment(ctx: RequestContext, { discussion: d, row }: CommentInDiscussion): Promise<void> {
  const permissions = await discussionPermissions(ctx, d, row.postedBy);
  if (!permissions.delete) throw new ForbiddenError('Only its author or an admin of the space may delete a comment');
  await deleteCommentRow(ctx.db, row.id);
  await publish(ctx, d, row, 'deleted');
}

export async function listReplies(ctx: RequestContext, comment: CommentInDiscussion, args: PageArgs, max: number, query?: FormatInput): Promise<Page<ReplyInDiscussion>> {
  const format = withFormat(query);
  const page = await listReplyRows(ctx.db, comment.row.id, args, max);
  return { ...page, items: page.items.map((row) => ({ comment, row, format })) };
}

/** Replies of comments the caller already read, the same window for each, in one statement. */
export async function listRepliesOf(ctx: RequestContext, comments: readonly CommentInDiscussion[], args: PageArgs, max: number): Promise<Map<string, Page<ReplyInDiscussion>>> {
  const pages = await listRepliesOfComments(ctx.db, comments.map((c) => c.row.id), args, max);
  const byId = new Map(comments.map((c) => [c.row.id, c]));
  return new Map([...pages].map(([id, page]) => [id, { ...page, items: page.items.map((row) => ({ comment: byId.get(id)!, row, format: 'markdown' as const })) }]));
}

export async function getReply(ctx: RequestContext, comment: CommentInDiscussion, replyId: string, query?: FormatInput): Promise<ReplyInDiscussion> {
  const row = await findReply(ctx.db, comment.row.id, replyId);
  if (!row) throw new NotFoundError('Comment reply');
  return { comment, row, format: withFormat(query) };
}

export async function postReply(ctx: RequestContext, comment: CommentInDiscussion, input: ReplyPostInput): Promise<ReplyInDiscussion> {
  const viewer = requireViewer(ctx);
  await assertMayComment(ctx, comment.discussion);
  const { body } = parseInput(replyPostSchema, input);
  const row = await insertReply(ctx.db, { id: newId(), commentId: comment.row.id, body: body.markdown, postedBy: viewer.user.id, postedAt: ctx.now() });
  await publish(ctx, comment.discussion, comment.row, 'replied');
  // The thread as it is now: its reply count moved with the insert.
  return { comment: await getComment(ctx, comment.discussion, comment.row.id), row, format: 'document' };
}

export async function updateReply(ctx: RequestContext, current: ReplyInDiscussion, input: ReplyUpdateInput): Promise<ReplyInDiscussion> {
  const viewer = requireViewer(ctx);
  const { comment, row: { id: replyId } } = current;
  const parsed = parseInput(replyUpdateSchema, input);
  await assertMayComment(ctx, comment.discussion);
  const permissions = await discussionPermissions(ctx, comment.discussion, current.row.postedBy);
  if (parsed.body && !permissions.edit) throw new ForbiddenError('Only its author may edit a reply');
  const now = ctx.now();
  const row = await ctx.db.transaction(async (tx) => {
    await changeReactions(tx, { commentId: comment.row.id, replyId }, viewer.user.id, parsed.addedReactions ?? [], parsed.removedReactions ?? [], now);
    return parsed.body && parsed.body.markdown !== current.row.body ? updateReplyRow(tx, replyId, { body: parsed.body.markdown, editedAt: now }) : current.row;
  });
  await publish(ctx, comment.discussion, comment.row, 'edited');
  return { comment, row, format: 'document' };
}

export async function deleteReply(ctx: RequestContext, { comment, row }: ReplyInDiscussion): Promise<void> {
  const permissions = await discussionPermissions(ctx, comment.discussion, row.postedBy);
  if (!permissions.delete) throw new ForbiddenError('Only its author or an admin of the space may delete a reply');
  await deleteReplyRow(ctx.db, row.id);
  await publish(ctx, comment.discussion, comment.row, 'edited');
}

/** Members who took part in the discussion. */
export async function listCommenters(ctx: RequestContext, d: Discussion, args: PageArgs, max: number): Promise<Page<MemberRow>> {
  return listCommenterRows(ctx.db, d.space.organizationId, d.scope, args, max);
}

export async function commentAuthor(ctx: RequestContext, userId: string | null): Promise<UserRow | null> {
  return userId ? userById(ctx).load(userId) : null;
}

/** Reactions of a comment or reply, batched with the others of the request. */
export async function reactionsOf(ctx: RequestContext, subjectId: string): Promise<CommentReactionRow[]> {
  return (await reactionsBySubject(ctx).load(subjectId)) ?? [];
}

async function publish(ctx: RequestContext, d: Discussion, row: CommentRow, kind: CommentEventKind): Promise<void> {
  await publishCommentEvent(ctx.db, { kind, spaceId: d.space.id, changeRequestId: d.changeRequest?.id ?? null, pageId: row.pageId, commentId: row.id });
}

/** A reply by id alone (GraphQL's node lookup), when the caller may read its space. */
export async function getReplyById(ctx: RequestContext, id: string): Promise<ReplyInDiscussion> {
  requireViewer(ctx);
  const row = await findReplyById(ctx.db, id);
  if (!row) throw new NotFoundError('Comment reply');
  const comment = await hiddenAsMissing(getCommentById(ctx, row.commentId), 'Comment reply');
  return { comment, row, format: 'markdown' };
}

export interface DiscussionEvent {
  kind: CommentEventKind;
  commentId: string;
  /** The comment as the subscriber may read it now; null once deleted. */
  comment: CommentInDiscussion | null;
}

/**
 * What happens in a discussion from now on (a page's only, with `pageId`), from any instance.
 * Access is checked when it starts and again, afresh, at each event: a subscriber who lost
 * access to the space gets nothing more, and the stream ends. Each event's comment is read anew,
 * through loaders made for that event: its reactions, replies and author are those of now.
 */
export async function watchDiscussion(ctx: RequestContext, spaceId: string, changeRequest: string | undefined, pageId: string | undefined, signal?: AbortSignal): Promise<AsyncIterableIterator<DiscussionEvent>> {
  assertLive(ctx);
  const watched = await getDiscussion(ctx, spaceId, changeRequest);
  return watchChannel<DiscussionEvent>(
    ctx,
    COMMENT_CHANNEL,
    async (payload, renew) => {
      const event = parseCommentEvent(payload);
      if (!event || event.spaceId !== watched.space.id || event.changeRequestId !== watched.scope.changeRequestId) return null;
      if (pageId !== undefined && event.pageId !== pageId) return null;
      const fresh = await renew();
      const now = fresh && (await refusedAsNull(getDiscussion(fresh, spaceId, changeRequest)));
      if (!fresh || !now) return 'end';
      if (event.kind === 'deleted') return { kind: event.kind, commentId: event.commentId, comment: null };
      const comment = await getComment(fresh, now, event.commentId).catch((error: unknown) => (error instanceof NotFoundError ? null : Promise.reject(error)));
      return comment && { kind: event.kind, commentId: event.commentId, comment: { ...comment, format: 'markdown' } };
    },
    signal,
  );
}
