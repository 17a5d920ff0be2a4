import { GitBookAPI, GitBookAPIError } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scenario } from '../support/scenario';
import { validateResponse } from '../support/openapi';
import type { TestApp } from '../support/clients';
import type { Actor, OrgFixture } from '../support/factories';

/** Discussions through the official client, unmodified, over real HTTP: both prefixes. */
let t: TestApp;
let server: { url: string; stop(): Promise<void> };
let acme: OrgFixture;
let people: Record<'commenter' | 'reader', Actor>;
let commenter: GitBookAPI;
let reader: GitBookAPI;
let spaceId: string;
let crId: string;

beforeAll(async () => {
  ({ t, acme, people } = await scenario({ commenter: ['comment', 'Cora Commenter'], reader: ['read', 'Rita Reader'] }));
  server = await t.serve();
  commenter = new GitBookAPI({ endpoint: server.url, authToken: people.commenter.token });
  reader = new GitBookAPI({ endpoint: server.url, authToken: people.reader.token });
  spaceId = (await t.rest('POST', `/v1/orgs/${acme.organizationId}/spaces`, { token: acme.admin.token, body: { title: 'Talk' } })).body.id;
  crId = (await t.rest('POST', `/v1/spaces/${spaceId}/change-requests`, { token: acme.admin.token, body: { subject: 'Talk' } })).body.id;
});
afterAll(async () => {
  await server?.stop();
  await t?.close();
});

describe('comments through the official GitBookAPI client', () => {
  it('on a space: post, list, read, resolve, react, reply and delete', async () => {
    const base = `/v1/spaces/${spaceId}`;
    const { data: posted } = await commenter.spaces.postCommentInSpace(spaceId, { body: { markdown: 'First!' } });
    validateResponse('POST', `${base}/comments`, 200, posted);
    const { data: list } = await reader.spaces.listCommentsInSpace(spaceId, { status: 'open', format: 'markdown', authors: [people.commenter.userId] });
    validateResponse('GET', `${base}/comments`, 200, list);
    expect(list.items.map((c) => c.id)).toEqual([posted.id]);
    const { data: resolved } = await commenter.spaces.updateCommentInSpace(spaceId, posted.id, { resolved: true, addedReactions: ['🚀'] });
    validateResponse('PUT', `${base}/comments/${posted.id}`, 200, resolved);
    expect(resolved).toMatchObject({ status: 'resolved', reactions: [{ emoji: '🚀', count: 1 }] });
    const { data: got } = await reader.spaces.getCommentInSpace(spaceId, posted.id, { format: 'markdown' });
    expect(got.body).toEqual({ markdown: 'First!' });

    const { data: reply } = await commenter.spaces.postCommentReplyInSpace(spaceId, posted.id, { body: { markdown: 'Me again' } });
    validateResponse('POST', `${base}/comments/${posted.id}/replies`, 200, reply);
    const { data: replies } = await reader.spaces.listCommentRepliesInSpace(spaceId, posted.id);
    expect(replies.items.map((r) => r.id)).toEqual([reply.id]);
    const { data: edited } = await commenter.spaces.updateCommentReplyInSpace(spaceId, posted.id, reply.id, { body: { markdown: 'Me, edited' } });
    expect(edited.editedAt).toBeDefined();
    expect((await reader.spaces.getCommentReplyInSpace(spaceId, posted.id, reply.id, { format: 'markdown' })).data.body).toEqual({ markdown: 'Me, edited' });
    const { data: commenters } = await reader.spaces.listCommentersInSpace(spaceId);
    expect(commenters.items.map((m) => m.id)).toEqual([people.commenter.userId]);

    expect((await commenter.spaces.deleteCommentReplyInSpace(spaceId, posted.id, reply.id)).status).toBe(204);
    expect((await commenter.spaces.deleteCommentInSpace(spaceId, posted.id)).status).toBe(204);
    await expect(reader.spaces.getCommentInSpace(spaceId, posted.id)).rejects.toMatchObject({ code: 404 });
  });

  it('on a change request: the same operations', async () => {
    const { data: posted } = await commenter.spaces.postCommentInChangeRequest(spaceId, crId, { body: { markdown: 'On the CR' } });
    expect(posted.target.changeRequest).toBe(crId);
    expect((await reader.spaces.listCommentsInChangeRequest(spaceId, crId)).data.items.map((c) => c.id)).toEqual([posted.id]);
    expect((await reader.spaces.getCommentInChangeRequest(spaceId, crId, posted.id)).data.id).toBe(posted.id);
    await commenter.spaces.updateCommentInChangeRequest(spaceId, crId, posted.id, { body: { markdown: 'On the CR, edited' } });
    const { data: reply } = await commenter.spaces.postCommentReplyInChangeRequest(spaceId, crId, posted.id, { body: { markdown: 'ok' } }, { format: 'markdown' });
    expect(reply.body).toEqual({ markdown: 'ok' });
    expect((await reader.spaces.listCommentRepliesInChangeRequest(spaceId, crId, posted.id)).data.items).toHaveLength(1);
    expect((await reader.spaces.getCommentReplyInChangeRequest(spaceId, crId, posted.id, reply.id)).data.id).toBe(reply.id);
    await commenter.spaces.updateCommentReplyInChangeRequest(spaceId, crId, posted.id, reply.id, { addedReactions: ['👀'] });
    expect((await reader.spaces.listCommentersInChangeRequest(spaceId, crId)).data.items.map((m) => m.id)).toEqual([people.commenter.userId]);
    expect((await commenter.spaces.deleteCommentReplyInChangeRequest(spaceId, crId, posted.id, reply.id)).status).toBe(204);
    expect((await commenter.spaces.deleteCommentInChangeRequest(spaceId, crId, posted.id)).status).toBe(204);
    // The space's own discussion does not show change-request comments.
    expect((await reader.spaces.listCommentsInSpace(spaceId)).data.items).toEqual([]);
  });

  it('reports refusals as the client expects', async () => {
    const error = await reader.spaces.postCommentInSpace(spaceId, { body: { markdown: 'nope' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitBookAPIError);
    expect((error as GitBookAPIError).code).toBe(403);
  });
});
