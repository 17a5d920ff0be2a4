import { pageArgs, renderList, REST_MAX } from '../../rest/pagination';
import { bodyAs, optionalParam, type RestRouter } from '../../rest/router';
import { presentMember } from '../members/present';
import type { CommentListInput, CommentPostInput, CommentUpdateInput, FormatInput, ReplyPostInput, ReplyUpdateInput } from './input';
import { presentComment, presentReply } from './present';
import {
  deleteComment,
  deleteReply,
  getComment,
  getDiscussion,
  getReply,
  listCommenters,
  listComments,
  listReplies,
  postComment,
  postReply,
  updateComment,
  updateReply,
  withFormat,
} from './service';

const formatQuery = (query: URLSearchParams) => ({ format: optionalParam(query, 'format') }) as FormatInput;

/**
 * The 11 discussion operations, once on a space (`/v1/spaces/:spaceId`) and once on a change
 * request (`.../change-requests/:changeRequestId`): the same services, scoped by the path.
 */
export function commentRoutes(r: RestRouter): void {
  for (const prefix of ['/v1/spaces/:spaceId', '/v1/spaces/:spaceId/change-requests/:changeRequestId']) {
    const discussion = (ctx: Parameters<typeof getDiscussion>[0], params: Record<string, string>) => getDiscussion(ctx, params.spaceId, params.changeRequestId);
    const comment = async (ctx: Parameters<typeof getDiscussion>[0], params: Record<string, string>) => getComment(ctx, await discussion(ctx, params), params.commentId);
    const reply = async (ctx: Parameters<typeof getDiscussion>[0], params: Record<string, string>) => getReply(ctx, await comment(ctx, params), params.replyId);

    r.get(`${prefix}/comments`, async ({ ctx, params, query }) => {
      const filter = {
        order: optionalParam(query, 'order'),
        status: optionalParam(query, 'status'),
        format: optionalParam(query, 'format'),
        targetPage: optionalParam(query, 'targetPage'),
        authors: query.getAll('authors').filter(Boolean),
      } as CommentListInput;
      const page = await listComments(ctx, await discussion(ctx, params), filter, pageArgs(query), REST_MAX);
      return { status: 200, body: await renderList(ctx, page, presentComment) };
    });

    r.post(`${prefix}/comments`, async ({ ctx, params, body, query }) => {
      // The format is checked before anything is written.
      const format = withFormat(formatQuery(query));
      return { status: 200, body: await presentComment(ctx, { ...(await postComment(ctx, await discussion(ctx, params), bodyAs<CommentPostInput>(body))), format }) };
    });

    r.get(`${prefix}/comments/:commentId`, async ({ ctx, params, query }) => ({
      status: 200,
      body: await presentComment(ctx, await getComment(ctx, await discussion(ctx, params), params.commentId, formatQuery(query))),
    }));

    r.put(`${prefix}/comments/:commentId`, async ({ ctx, params, body, query }) => {
      // The format is checked before anything is written.
      const format = withFormat(formatQuery(query));
      return { status: 200, body: await presentComment(ctx, { ...(await updateComment(ctx, await comment(ctx, params), bodyAs<CommentUpdateInput>(body))), format }) };
    });

    r.delete(`${prefix}/comments/:commentId`, async ({ ctx, params }) => {
      await deleteComment(ctx, await comment(ctx, params));
      return { status: 204 };
    });

    r.get(`${prefix}/comments/:commentId/replies`, async ({ ctx, params, query }) => {
      const page = await listReplies(ctx, await comment(ctx, params), pageArgs(query), REST_MAX, formatQuery(query));
      return { status: 200, body: await renderList(ctx, page, presentReply) };
    });

    r.post(`${prefix}/comments/:commentId/replies`, async ({ ctx, params, body, query }) => {
      // The format is checked before anything is written.
      const format = withFormat(formatQuery(query));
      return { status: 200, body: await presentReply(ctx, { ...(await postReply(ctx, await comment(ctx, params), bodyAs<ReplyPostInput>(body))), format }) };
    });

    r.get(`${prefix}/comments/:commentId/replies/:replyId`, async ({ ctx, params, query }) => ({
      status: 200,
      body: await presentReply(ctx, await getReply(ctx, await comment(ctx, params), params.replyId, formatQuery(query))),
    }));

    r.put(`${prefix}/comments/:commentId/replies/:replyId`, async ({ ctx, params, body, query }) => {
      // The format is checked before anything is written.
      const format = withFormat(formatQuery(query));
      return { status: 200, body: await presentReply(ctx, { ...(await updateReply(ctx, await reply(ctx, params), bodyAs<ReplyUpdateInput>(body))), format }) };
    });

    r.delete(`${prefix}/comments/:commentId/replies/:replyId`, async ({ ctx, params }) => {
      await deleteReply(ctx, await reply(ctx, params));
      return { status: 204 };
    });

    r.get(`${prefix}/commenters`, async ({ ctx, params, query }) => {
      const page = await listCommenters(ctx, await discussion(ctx, params), pageArgs(query), REST_MAX);
      return { status: 200, body: await renderList(ctx, page, presentMember) };
    });
  }
}
