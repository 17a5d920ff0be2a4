import { encodeGlobalID } from '@pothos/plugin-relay';
import { defineMutation } from '../../../graphql/mutation';
import { ChangeRequestRef } from '../../change-requests/graphql/refs';
import { SpaceRef } from '../../spaces/graphql/refs';
import { deleteComment, deleteReply, getComment, getCommentById, getDiscussion, getReplyById, postComment, postReply, updateComment, updateReply } from '../service';
import { CommentRef, CommentReplyRef } from './refs';

const comment = (description: string) => ({ comment: { type: CommentRef, description } });
const reply = (description: string) => ({ reply: { type: CommentReplyRef, description } });
const bodyFields = { 'body.markdown': 'markdown', body: 'markdown', addedReactions: 'add', removedReactions: 'remove' };

defineMutation('commentPost', {
  description: "Starts a discussion thread on a space, or on one of its change requests, about the whole or a page (and a node of it). Needs the comment role or more on the space.",
  input: (t) => ({
    spaceId: t.globalID({ for: SpaceRef, required: true, description: 'The space.' }),
    changeRequestId: t.globalID({ for: ChangeRequestRef, description: 'A change request of the space, to comment on it rather than on the space.' }),
    pageId: t.string({ description: 'REST id of the page it is about, in the content it comments on.' }),
    nodeId: t.string({ description: 'A node of that page (a paragraph, say), as the editor names it.' }),
    markdown: t.string({ required: true, description: 'The text, in markdown: at most 20,000 characters.' }),
  }),
  fields: { ...bodyFields, page: 'pageId', node: 'nodeId' },
  payload: comment('The new comment.'),
  resolve: async ({ spaceId, changeRequestId, pageId, nodeId, markdown }, ctx) => {
    const discussion = await getDiscussion(ctx, spaceId.id, changeRequestId?.id);
    return { comment: await postComment(ctx, discussion, { body: { markdown }, ...(pageId != null ? { page: pageId } : {}), ...(nodeId != null ? { node: nodeId } : {}) }) };
  },
});

defineMutation('commentUpdate', {
  description: 'Changes the text of your own comment, and your reactions to it. Needs the comment role.',
  inputDescription: 'Input of commentUpdate. Absent fields stay as they are.',
  input: (t) => ({
    commentId: t.globalID({ for: CommentRef, required: true, description: 'The comment.' }),
    markdown: t.string({ description: 'Its new text (yours only).' }),
    add: t.stringList({ description: 'Emoji to react with.' }),
    remove: t.stringList({ description: 'Emoji to take back.' }),
  }),
  fields: bodyFields,
  payload: comment('The comment after the change.'),
  resolve: async ({ commentId, markdown, add, remove }, ctx) => {
    const found = await getCommentById(ctx, commentId.id);
    const input = { ...(markdown != null ? { body: { markdown } } : {}), ...(add ? { addedReactions: add } : {}), ...(remove ? { removedReactions: remove } : {}) };
    return { comment: await updateComment(ctx, found, input) };
  },
});

for (const [name, resolved, description] of [
  ['commentResolve', true, 'Marks a thread resolved. Needs the comment role.'],
  ['commentReopen', false, 'Opens a resolved thread again. Needs the comment role.'],
] as const) {
  defineMutation(name, {
    description,
    input: (t) => ({ commentId: t.globalID({ for: CommentRef, required: true, description: 'The comment.' }) }),
    payload: comment('The comment after the change.'),
    resolve: async ({ commentId }, ctx) => ({ comment: await updateComment(ctx, await getCommentById(ctx, commentId.id), { resolved }) }),
  });
}

defineMutation('commentDelete', {
  description: 'Deletes a thread with its replies: your own, or any as an admin of the space.',
  input: (t) => ({ commentId: t.globalID({ for: CommentRef, required: true, description: 'The comment.' }) }),
  payload: { deletedCommentId: { type: 'ID', description: 'Global id of the deleted comment.' } },
  gone: ({ commentId }) => ({ deletedCommentId: encodeGlobalID('Comment', commentId.id) }),
  resolve: async ({ commentId }, ctx) => {
    const found = await getCommentById(ctx, commentId.id);
    await deleteComment(ctx, found);
    return { deletedCommentId: encodeGlobalID('Comment', found.row.id) };
  },
});

defineMutation('commentReplyPost', {
  description: 'Answers in a thread. Needs the comment role.',
  input: (t) => ({
    commentId: t.globalID({ for: CommentRef, required: true, description: 'The thread.' }),
    markdown: t.string({ required: true, description: 'The text, in markdown: at most 20,000 characters.' }),
  }),
  fields: bodyFields,
  payload: reply('The new reply.'),
  resolve: async ({ commentId, markdown }, ctx) => ({ reply: await postReply(ctx, await getCommentById(ctx, commentId.id), { body: { markdown } }) }),
});

defineMutation('commentReplyUpdate', {
  description: 'Changes the text of your own reply, and your reactions to it. Needs the comment role.',
  inputDescription: 'Input of commentReplyUpdate. Absent fields stay as they are.',
  input: (t) => ({
    replyId: t.globalID({ for: CommentReplyRef, required: true, description: 'The reply.' }),
    markdown: t.string({ description: 'Its new text (yours only).' }),
    add: t.stringList({ description: 'Emoji to react with.' }),
    remove: t.stringList({ description: 'Emoji to take back.' }),
  }),
  fields: bodyFields,
  payload: reply('The reply after the change.'),
  resolve: async ({ replyId, markdown, add, remove }, ctx) => {
    const found = await getReplyById(ctx, replyId.id);
    const input = { ...(markdown != null ? { body: { markdown } } : {}), ...(add ? { addedReactions: add } : {}), ...(remove ? { removedReactions: remove } : {}) };
    return { reply: await updateReply(ctx, found, input) };
  },
});

defineMutation('commentReplyDelete', {
  description: 'Deletes a reply: your own, or any as an admin of the space.',
  input: (t) => ({ replyId: t.globalID({ for: CommentReplyRef, required: true, description: 'The reply.' }) }),
  payload: { comment: { type: CommentRef, description: 'The thread it was in.' } },
  gone: () => ({}),
  resolve: async ({ replyId }, ctx) => {
    const found = await getReplyById(ctx, replyId.id);
    await deleteReply(ctx, found);
    // The thread read again: its reply count moved with the delete.
    return { comment: await getComment(ctx, found.comment.discussion, found.comment.row.id) };
  },
});
