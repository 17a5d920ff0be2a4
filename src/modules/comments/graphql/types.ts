import { builder } from '../../../graphql/builder';
import { costExtensions } from '../../../graphql/cost';
import type { PageArgs } from '../../../domain/page';
import type { ChangeRequestInSpace } from '../../change-requests/service';
import type { SpaceRow } from '../../../db/schema/spaces';
import { orNull } from '../../../graphql/errors';
import { batchedConnection, GRAPHQL_MAX, pageToConnection, totalCountField } from '../../../graphql/relay';
import { ChangeRequestRef } from '../../change-requests/graphql/refs';
import { PageRef } from '../../content/graphql/refs';
import { SpaceRef } from '../../spaces/graphql/refs';
import { UserRef } from '../../users/graphql/refs';
import {
  commentAuthor,
  discussionContent,
  discussionPermissions,
  getCommentById,
  getDiscussion,
  getReplyById,
  listComments,
  listCommentsOf,
  listRepliesOf,
  reactionsOf,
  type CommentInDiscussion,
  type Discussion,
} from '../service';
import { CommentEventRef, CommentRef, CommentReplyRef, CommentStatusEnum } from './refs';

/** Reactions of one comment, and people behind one emoji, counted before execution: a handful is usual. */
const REACTIONS_EXPECTED = 5;

interface ReactionShape {
  emoji: string;
  users: { userId: string; reactedAt: Date }[];
}

const ReactionUserRef = builder.objectRef<{ userId: string; reactedAt: Date }>('CommentReactionUser').implement({
  description: 'Someone who reacted, and when.',
  fields: (t) => ({
    user: t.field({ type: UserRef, nullable: true, description: 'Who; null when their account is gone.', resolve: (r, _, ctx) => commentAuthor(ctx, r.userId) }),
    reactedAt: t.field({ type: 'DateTime', description: 'When they reacted.', resolve: (r) => r.reactedAt }),
  }),
});

const ReactionRef = builder.objectRef<ReactionShape>('CommentReaction').implement({
  description: 'One emoji on a comment or reply, with everyone who chose it.',
  fields: (t) => ({
    emoji: t.exposeString('emoji', { description: 'The emoji.' }),
    count: t.int({ description: 'How many people chose it.', resolve: (r) => r.users.length }),
    users: t.field({ type: [ReactionUserRef], description: 'Who chose it, first first.', extensions: costExtensions({ expected: REACTIONS_EXPECTED }), resolve: (r) => r.users }),
  }),
});

async function reactions(ctx: Parameters<typeof reactionsOf>[0], subjectId: string): Promise<ReactionShape[]> {
  const byEmoji = new Map<string, ReactionShape>();
  for (const row of await reactionsOf(ctx, subjectId)) {
    const entry = byEmoji.get(row.emoji) ?? { emoji: row.emoji, users: [] };
    entry.users.push({ userId: row.userId, reactedAt: row.reactedAt });
    byEmoji.set(row.emoji, entry);
  }
  return [...byEmoji.values()];
}

const repliesBatch = batchedConnection('Comment.replies', (ctx, comments: readonly (CommentInDiscussion & { id: string })[], window: PageArgs) =>
  listRepliesOf(ctx, comments, window, GRAPHQL_MAX),
);

const CommentReplyConnection = builder.connectionObject(
  { type: CommentReplyRef, name: 'CommentReplyConnection', description: 'A page of replies.', fields: totalCountField },
  { name: 'CommentReplyEdge', description: 'A reply in a page, with its cursor.' },
);

builder.node(CommentReplyRef, {
  description: 'An answer in a discussion thread.',
  id: { resolve: (r) => r.row.id },
  loadOne: (id, ctx) => orNull(getReplyById(ctx, id)),
  fields: (t) => ({
    restId: t.string({ description: 'The id in the REST API.', resolve: (r) => r.row.id }),
    markdown: t.string({ description: 'Its text, in markdown.', resolve: (r) => r.row.body }),
    postedBy: t.field({ type: UserRef, nullable: true, description: 'Its author; null when their account is gone.', resolve: (r, _, ctx) => commentAuthor(ctx, r.row.postedBy) }),
    postedAt: t.field({ type: 'DateTime', description: 'When it was posted.', resolve: (r) => r.row.postedAt }),
    editedAt: t.field({ type: 'DateTime', nullable: true, description: 'When its text last changed; null if never.', resolve: (r) => r.row.editedAt }),
    comment: t.field({ type: CommentRef, description: 'The thread it answers.', resolve: (r) => r.comment }),
    reactions: t.field({ type: [ReactionRef], description: 'Emoji reactions, in order of first use.', extensions: costExtensions({ expected: REACTIONS_EXPECTED }), resolve: (r, _, ctx) => reactions(ctx, r.row.id) }),
    viewerCanEdit: t.boolean({ description: 'Whether you may change its text (its author, with the comment role).', resolve: async (r, _, ctx) => (await discussionPermissions(ctx, r.comment.discussion, r.row.postedBy)).edit }),
    viewerCanDelete: t.boolean({ description: 'Whether you may delete it (its author, or an admin of the space).', resolve: async (r, _, ctx) => (await discussionPermissions(ctx, r.comment.discussion, r.row.postedBy)).delete }),
  }),
});

builder.node(CommentRef, {
  description: 'A discussion thread on a space or a change request, about the whole, a page, a node of a page or a table cell.',
  id: { resolve: (c) => c.row.id },
  loadOne: (id, ctx) => orNull(getCommentById(ctx, id)),
  fields: (t) => ({
    restId: t.string({ description: 'The id in the REST API.', resolve: (c) => c.row.id }),
    markdown: t.string({ description: 'Its text, in markdown.', resolve: (c) => c.row.body }),
    status: t.field({ type: CommentStatusEnum, description: 'Open or resolved.', resolve: (c) => c.row.status }),
    postedBy: t.field({ type: UserRef, nullable: true, description: 'Its author; null when their account is gone.', resolve: (c, _, ctx) => commentAuthor(ctx, c.row.postedBy) }),
    postedAt: t.field({ type: 'DateTime', description: 'When it was posted.', resolve: (c) => c.row.postedAt }),
    editedAt: t.field({ type: 'DateTime', nullable: true, description: 'When its text last changed; null if never.', resolve: (c) => c.row.editedAt }),
    resolvedAt: t.field({ type: 'DateTime', nullable: true, description: 'When it was resolved; null while open.', resolve: (c) => c.row.resolvedAt }),
    resolvedBy: t.field({ type: UserRef, nullable: true, description: 'Who resolved it; null while open.', resolve: (c, _, ctx) => (c.row.status === 'resolved' ? commentAuthor(ctx, c.row.resolvedBy) : null) }),
    space: t.field({ type: SpaceRef, description: 'The space it is in.', resolve: (c) => c.discussion.space }),
    changeRequest: t.field({ type: ChangeRequestRef, nullable: true, description: 'The change request it is on; null for the space itself.', resolve: (c) => (c.discussion.changeRequest ? { space: c.discussion.space, row: c.discussion.changeRequest } : null) }),
    pageId: t.string({ nullable: true, description: 'REST id of the page it is about; null for the whole.', resolve: (c) => c.row.pageId }),
    nodeId: t.string({ nullable: true, description: 'The node of the page it is about, if any.', resolve: (c) => c.row.nodeId }),
    page: t.field({
      type: PageRef,
      nullable: true,
      description: 'The page it is about, in the current content; null when it is about the whole, or the page is gone (outdated).',
      resolve: async (c, _, ctx) => {
        if (!c.row.pageId) return null;
        const content = await discussionContent(ctx, c.discussion);
        const entry = content.tree.byId.get(c.row.pageId);
        return entry ? { ...content, entry } : null;
      },
    }),
    replyCount: t.int({ description: 'How many replies it has.', resolve: (c) => c.row.replies }),
    replies: t.connection(
      {
        type: CommentReplyRef,
        description: 'Its replies, oldest first.',
        // Every comment of the request asking for the same window shares one statement.
        resolve: (c, args, ctx, info) => repliesBatch({ ...c, id: c.row.id }, args, ctx, info),
      },
      CommentReplyConnection,
    ),
    reactions: t.field({ type: [ReactionRef], description: 'Emoji reactions, in order of first use.', extensions: costExtensions({ expected: REACTIONS_EXPECTED }), resolve: (c, _, ctx) => reactions(ctx, c.row.id) }),
    viewerCanEdit: t.boolean({ description: 'Whether you may change its text (its author, with the comment role).', resolve: async (c, _, ctx) => (await discussionPermissions(ctx, c.discussion, c.row.postedBy)).edit }),
    viewerCanReply: t.boolean({ description: 'Whether you may reply, react, resolve or reopen (the comment role or more).', resolve: async (c, _, ctx) => (await discussionPermissions(ctx, c.discussion, c.row.postedBy)).reply }),
    viewerCanDelete: t.boolean({ description: 'Whether you may delete it with its replies (its author, or an admin of the space).', resolve: async (c, _, ctx) => (await discussionPermissions(ctx, c.discussion, c.row.postedBy)).delete }),
  }),
});

const CommentConnection = builder.connectionObject(
  { type: CommentRef, name: 'CommentConnection', description: 'A page of comments.', fields: totalCountField },
  { name: 'CommentEdge', description: 'A comment in a page, with its cursor.' },
);

const OrderEnum = builder.enumType('CommentOrder', {
  description: 'Order of a list of comments by time posted.',
  values: { NEWEST_FIRST: { value: 'desc' as const, description: 'Newest first.' }, OLDEST_FIRST: { value: 'asc' as const, description: 'Oldest first.' } },
});

const listArgs = builder.args((t) => ({
  status: t.field({ type: CommentStatusEnum, description: 'Only open or only resolved ones; all when absent.' }),
  order: t.field({ type: OrderEnum, description: 'NEWEST_FIRST when absent.' }),
  authors: t.stringList({ description: 'Only those posted by these users (REST ids).' }),
}));

async function commentPage(ctx: Parameters<typeof listComments>[0], d: Discussion, args: { status?: 'open' | 'resolved' | null; order?: 'asc' | 'desc' | null; authors?: string[] | null; first?: number | null; after?: string | null; last?: number | null; before?: string | null }, targetPage?: string) {
  const filter = { status: (args.status ?? 'all') as 'all' | 'open' | 'resolved', order: args.order ?? 'desc', authors: args.authors ?? [], format: 'markdown' as const, ...(targetPage ? { targetPage } : {}) };
  return pageToConnection(await listComments(ctx, d, filter, args, GRAPHQL_MAX));
}

type ListArgs = PageArgs & { status?: 'open' | 'resolved' | null; order?: 'asc' | 'desc' | null; authors?: string[] | null };
const filterOf = (args: ListArgs) => ({ status: (args.status ?? 'all') as 'all' | 'open' | 'resolved', order: args.order ?? 'desc', authors: args.authors ?? [], format: 'markdown' as const });
const windowOf = ({ first, after, last, before }: ListArgs): PageArgs => ({ first, after, last, before });

// Every space (or change request) of the request asking for the same window shares one statement.
const spaceComments = batchedConnection('Space.comments', (ctx, spaces: readonly SpaceRow[], args: ListArgs) =>
  listCommentsOf(ctx, spaces.map((space) => ({ space, changeRequest: null, scope: { spaceId: space.id, changeRequestId: null } })), filterOf(args), windowOf(args), GRAPHQL_MAX),
);
const changeRequestComments = batchedConnection('ChangeRequest.comments', (ctx, crs: readonly (ChangeRequestInSpace & { id: string })[], args: ListArgs) =>
  listCommentsOf(ctx, crs.map(({ space, row }) => ({ space, changeRequest: row, scope: { spaceId: space.id, changeRequestId: row.id } })), filterOf(args), windowOf(args), GRAPHQL_MAX),
);

builder.objectFields(SpaceRef, (t) => ({
  comments: t.connection(
    { type: CommentRef, description: "The space's own discussion (not its change requests'), newest first.", args: listArgs, resolve: (space, args, ctx, info) => spaceComments(space, args, ctx, info) },
    CommentConnection,
  ),
}));

builder.objectFields(ChangeRequestRef, (t) => ({
  comments: t.connection(
    { type: CommentRef, description: 'The discussion of the change request, newest first.', args: listArgs, resolve: (cr, args, ctx, info) => changeRequestComments({ ...cr, id: cr.row.id }, args, ctx, info) },
    CommentConnection,
  ),
}));

builder.objectFields(PageRef, (t) => ({
  comments: t.connection(
    {
      type: CommentRef,
      description: "Comments of the space's own discussion about this page, newest first.",
      args: listArgs,
      resolve: async (page, args, ctx) => commentPage(ctx, await getDiscussion(ctx, page.space.id), args, page.entry.page.data.id),
    },
    CommentConnection,
  ),
}));

const CommentEventKindEnum = builder.enumType('CommentEventKind', {
  description: 'What happened to a comment.',
  values: {
    ADDED: { value: 'added' as const, description: 'It was posted.' },
    EDITED: { value: 'edited' as const, description: 'Its text, its reactions or its replies changed.' },
    RESOLVED: { value: 'resolved' as const, description: 'It was resolved.' },
    REOPENED: { value: 'reopened' as const, description: 'It was reopened.' },
    REPLIED: { value: 'replied' as const, description: 'Someone replied.' },
    DELETED: { value: 'deleted' as const, description: 'It was deleted, with its replies.' },
  },
});

CommentEventRef.implement({
  description: 'A change in a discussion, as it reaches a subscriber.',
  fields: (t) => ({
    kind: t.field({ type: CommentEventKindEnum, description: 'What happened.', resolve: (e) => e.kind }),
    commentId: t.string({ description: 'REST id of the comment.', resolve: (e) => e.commentId }),
    comment: t.field({ type: CommentRef, nullable: true, description: 'The comment as it is now; null once deleted.', resolve: (e): CommentInDiscussion | null => e.comment }),
  }),
});

