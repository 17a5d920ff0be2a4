import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/clients';
import { gid } from '../../support/doors';
import type { Actor, OrgFixture } from '../../support/factories';
import { mutations } from '../../support/graphql';
import { scenario } from '../../support/scenario';

/** Discussions through GraphQL: a mutation per action, typed user errors, nodes and connections. */
let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;
let people: Record<'commenter' | 'reader', Actor>;
let space: string;

beforeAll(async () => {
  ({ t, acme, other, people } = await scenario({ commenter: ['comment', 'Cora'], reader: ['read', 'Rita'] }));
  space = (await t.rest('POST', `/v1/orgs/${acme.organizationId}/spaces`, { token: acme.admin.token, body: { title: 'GQL' } })).body.id;
});
afterAll(() => t?.close());

const { succeed, userError, refused } = mutations(() => t, { token: () => people.commenter.token });
const COMMENT = 'comment { id restId markdown status replyCount reactions { emoji count } viewerCanEdit viewerCanDelete }';

describe('comment mutations', () => {
  it('post, react, reply, resolve, reopen and delete, and read it all back through the space', async () => {
    const { comment } = await succeed('commentPost', { spaceId: gid('Space', space), markdown: 'Hello **GraphQL**' }, COMMENT);
    expect(comment).toMatchObject({ markdown: 'Hello **GraphQL**', status: 'OPEN', replyCount: 0, viewerCanEdit: true, viewerCanDelete: true });
    await refused('commentUpdate', { commentId: comment.id, add: ['🎉'] }, people.reader.token, 'FORBIDDEN');
    expect((await succeed('commentUpdate', { commentId: comment.id, add: ['🎉'] }, COMMENT)).comment.reactions).toEqual([{ emoji: '🎉', count: 1 }]);
    const { reply } = await succeed('commentReplyPost', { commentId: comment.id, markdown: 'Reply' }, 'reply { id markdown comment { replyCount } }');
    expect(reply).toMatchObject({ markdown: 'Reply', comment: { replyCount: 1 } });
    expect((await succeed('commentResolve', { commentId: comment.id }, COMMENT, acme.admin.token)).comment.status).toBe('RESOLVED');
    expect((await succeed('commentReopen', { commentId: comment.id }, COMMENT)).comment.status).toBe('OPEN');

    const listed = await t.graphql(
      `query ($id: ID!) { node(id: $id) { ... on Space { comments(first: 10, status: OPEN) { totalCount edges { node { restId replies(first: 5) { edges { node { markdown } } } } } } } } }`,
      { id: gid('Space', space) },
      people.reader.token,
    );
    expect(listed.body.data.node.comments).toEqual({ totalCount: 1, edges: [{ node: { restId: comment.restId, replies: { edges: [{ node: { markdown: 'Reply' } }] } } }] });
    const byNode = await t.graphql(`query ($id: ID!) { node(id: $id) { ... on Comment { markdown } } }`, { id: comment.id }, people.reader.token);
    expect(byNode.body.data.node).toEqual({ markdown: 'Hello **GraphQL**' });
    const foreign = await t.graphql(`query ($id: ID!) { node(id: $id) { id } }`, { id: comment.id }, other.admin.token);
    expect(foreign.body.data.node).toBeNull();

    await succeed('commentReplyDelete', { replyId: reply.id }, 'comment { replyCount }');
    expect((await succeed('commentDelete', { commentId: comment.id }, 'deletedCommentId')).deletedCommentId).toBe(comment.id);
  });

  it('answers bad input with typed user errors naming the field, and refusals with a code', async () => {
    await userError('commentPost', { spaceId: gid('Space', space), markdown: '   ' }, 'VALIDATION_FAILED', ['markdown']);
    await userError('commentPost', { spaceId: gid('Space', space), markdown: 'x', pageId: 'nope' }, 'VALIDATION_FAILED', ['pageId']);
    const { comment } = await succeed('commentPost', { spaceId: gid('Space', space), markdown: 'mine' }, COMMENT);
    await userError('commentUpdate', { commentId: comment.id, add: ['nope'] }, 'VALIDATION_FAILED', ['add', '0']);
    await refused('commentPost', { spaceId: gid('Space', space), markdown: 'hi' }, people.reader.token, 'FORBIDDEN');
    await refused('commentUpdate', { commentId: comment.id, markdown: 'hijack' }, acme.admin.token, 'FORBIDDEN');
    await refused('commentPost', { spaceId: gid('Space', space), markdown: 'hi' }, other.admin.token, 'NOT_FOUND');
  });
});
