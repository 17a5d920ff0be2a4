import type { RequestContext } from '../../context/request-context';
import { markdownDocument } from '../content/service';
import { presentUser } from '../users/present';
import type { UserRow } from '../../db/schema/users';
import {
  commentAuthor,
  contentWhenPosted,
  discussionContent,
  discussionPermissions,
  reactionsOf,
  type BodyFormat,
  type CommentInDiscussion,
  type Discussion,
  type ReplyInDiscussion,
} from './service';

/** A user whose account is gone, for the author of an old comment. */
function formerUser(ctx: RequestContext) {
  return { object: 'user' as const, id: 'deleted', displayName: 'Deleted user', urls: { location: `${ctx.config.publicUrl}/v1/users/deleted` } };
}

async function person(ctx: RequestContext, user: UserRow | null) {
  return user ? presentUser(ctx, user) : formerUser(ctx);
}

async function presentBody(ctx: RequestContext, d: Discussion, markdown: string, format: BodyFormat) {
  if (format === 'markdown') return { markdown };
  return { document: markdownDocument(ctx, await discussionContent(ctx, d), markdown) };
}

/** The platform's EmojiReactions: one entry per emoji, in order of its first use, with who and when. */
async function presentReactions(ctx: RequestContext, subjectId: string) {
  const byEmoji = new Map<string, { user: UserRow | null; reactedAt: Date }[]>();
  for (const row of await reactionsOf(ctx, subjectId)) {
    const users = byEmoji.get(row.emoji) ?? [];
    users.push({ user: await commentAuthor(ctx, row.userId), reactedAt: row.reactedAt });
    byEmoji.set(row.emoji, users);
  }
  return Promise.all(
    [...byEmoji].map(async ([emoji, users]) => ({
      emoji,
      count: users.length,
      users: await Promise.all(users.map(async (u) => ({ user: await person(ctx, u.user), reactedAt: u.reactedAt.toISOString() }))),
    })),
  );
}

function location(ctx: RequestContext, d: Discussion) {
  const cr = d.changeRequest ? `/change-requests/${d.changeRequest.id}` : '';
  return `${ctx.config.publicUrl}/v1/spaces/${d.space.id}${cr}/comments`;
}

/** What the comment is about, as it stands now: a page that is gone from the content is `outdated`. */
async function presentTarget(ctx: RequestContext, c: CommentInDiscussion) {
  const { row, discussion } = c;
  const target: Record<string, unknown> = { space: row.spaceId, revision: row.revisionId };
  if (discussion.changeRequest) target.changeRequest = discussion.changeRequest.id;
  if (row.nodeId) target.node = { id: row.nodeId };
  if (row.tableRecord && row.tableDefinition) target.tableCell = { record: row.tableRecord, definition: row.tableDefinition };
  if (row.pageId) {
    const now = (await discussionContent(ctx, discussion)).tree.byId.get(row.pageId);
    const then = now ?? (await contentWhenPosted(ctx, c)).tree.byId.get(row.pageId);
    const page = then?.page.data;
    target.page = {
      id: row.pageId,
      title: page?.title || 'Deleted page',
      ...(page?.emoji ? { emoji: page.emoji } : {}),
      path: then?.path ?? '',
      outdated: !now,
    };
  }
  return target;
}

/** The platform's Comment, with its resolved/open variant. */
export async function presentComment(ctx: RequestContext, c: CommentInDiscussion) {
  const { row, discussion } = c;
  const [postedBy, reactions, body, target, permissions] = await Promise.all([
    commentAuthor(ctx, row.postedBy).then((u) => person(ctx, u)),
    presentReactions(ctx, row.id),
    presentBody(ctx, discussion, row.body, c.format),
    presentTarget(ctx, c),
    discussionPermissions(ctx, discussion, row.postedBy),
  ]);
  const status =
    row.status === 'resolved'
      ? { status: 'resolved' as const, resolvedAt: (row.resolvedAt ?? row.postedAt).toISOString(), resolvedBy: await commentAuthor(ctx, row.resolvedBy).then((u) => person(ctx, u)) }
      : { status: 'open' as const };
  return {
    object: 'comment' as const,
    id: row.id,
    postedBy,
    postedAt: row.postedAt.toISOString(),
    ...(row.editedAt ? { editedAt: row.editedAt.toISOString() } : {}),
    reactions,
    replies: row.replies,
    body,
    target,
    urls: { location: `${location(ctx, discussion)}/${row.id}` },
    permissions,
    ...status,
  };
}

/** The platform's CommentReply. */
export async function presentReply(ctx: RequestContext, r: ReplyInDiscussion) {
  const { row, comment } = r;
  const [postedBy, reactions, body, permissions] = await Promise.all([
    commentAuthor(ctx, row.postedBy).then((u) => person(ctx, u)),
    presentReactions(ctx, row.id),
    presentBody(ctx, comment.discussion, row.body, r.format),
    discussionPermissions(ctx, comment.discussion, row.postedBy),
  ]);
  return {
    object: 'comment-reply' as const,
    id: row.id,
    postedBy,
    postedAt: row.postedAt.toISOString(),
    ...(row.editedAt ? { editedAt: row.editedAt.toISOString() } : {}),
    reactions,
    body,
    urls: { location: `${location(ctx, comment.discussion)}/${comment.row.id}/replies/${row.id}` },
    permissions,
  };
}
