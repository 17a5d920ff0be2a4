import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commentReactions, commentReplies, comments } from '../../../src/db/schema/comments';
import type { TestApp } from '../../support/clients';
import type { Actor, OrgFixture } from '../../support/factories';
import { scenario } from '../../support/scenario';
import { contentBench, type ContentBench } from '../../support/change-requests';

/** Comments, replies and reactions through REST, on a space and on a change request. */
let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;
let people: Record<'commenter' | 'reader' | 'editor', Actor>;
let b: ContentBench;
let prefixes: { name: string; path: string; counter: () => Promise<number> }[];

beforeAll(async () => {
  ({ t, acme, other, people } = await scenario({ commenter: ['comment', 'Cora Commenter'], reader: ['read', 'Rita Reader'], editor: ['edit', 'Ed Editor'] }));
  b = await contentBench(() => t, () => acme, [{ title: 'Intro', markdown: '# Hello\n\nSome text.' }, { title: 'Guide', markdown: 'Steps.' }]);
  const cr = await b.openChangeRequest('Edits');
  prefixes = [
    { name: 'space', path: `/v1/spaces/${b.spaceId}`, counter: async () => (await t.rest('GET', `/v1/spaces/${b.spaceId}`, { token: acme.admin.token })).body.comments },
    {
      name: 'change request',
      path: `/v1/spaces/${b.spaceId}/change-requests/${cr.id}`,
      counter: async () => (await t.rest('GET', `/v1/spaces/${b.spaceId}/change-requests/${cr.id}`, { token: acme.admin.token })).body.comments,
    },
  ];
});
afterAll(() => t?.close());

/** The REST id of a page the bench knows by its GraphQL id (`Page:<space>/<page>`). */
const pageId = (bench: ContentBench, title: string) => Buffer.from(bench.page(title), 'base64').toString().split('/').pop()!;

const rowCounts = async () => ({
  comments: (await t.db.select().from(comments)).length,
  replies: (await t.db.select().from(commentReplies)).length,
  reactions: (await t.db.select().from(commentReactions)).length,
});

describe.each([0, 1])('discussion %#', (which) => {
  const p = () => prefixes[which];

  it('posts on a page, answers the target with the page title and path, and counts open comments', async () => {
    const before = await p().counter();
    const posted = await t.rest('POST', `${p().path}/comments`, { token: people.commenter.token, body: { page: pageId(b, 'Guide'), node: 'n1', body: { markdown: 'Is **this** right?' } } });
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    expect(posted.body).toMatchObject({
      object: 'comment',
      status: 'open',
      replies: 0,
      reactions: [],
      postedBy: { id: people.commenter.userId },
      target: { space: b.spaceId, node: { id: 'n1' }, page: { id: pageId(b, 'Guide'), title: 'Guide', path: 'guide', outdated: false } },
      permissions: { view: true, edit: true, reply: true, delete: true },
    });
    expect(posted.body.body.document).toBeDefined();
    expect(await p().counter()).toBe(before + 1);

    const asMarkdown = await t.rest('GET', `${p().path}/comments/${posted.body.id}?format=markdown`, { token: people.reader.token });
    expect(asMarkdown.body.body).toEqual({ markdown: 'Is **this** right?' });
    expect(asMarkdown.body.permissions).toEqual({ view: true, edit: false, reply: false, delete: false });
  });

  it('resolves and reopens (the oneOf), moving the counter, and lets the author edit', async () => {
    const posted = await t.rest('POST', `${p().path}/comments`, { token: people.commenter.token, body: { body: { markdown: 'General remark' } } });
    const id = posted.body.id;
    const open = await p().counter();
    const resolved = await t.rest('PUT', `${p().path}/comments/${id}`, { token: people.editor.token, body: { resolved: true } });
    expect(resolved.body).toMatchObject({ status: 'resolved', resolvedBy: { id: people.editor.userId } });
    expect(resolved.body.resolvedAt).toBeDefined();
    expect(await p().counter()).toBe(open - 1);
    const reopened = await t.rest('PUT', `${p().path}/comments/${id}`, { token: people.commenter.token, body: { resolved: false, body: { markdown: 'General remark, edited' } } });
    expect(reopened.body).toMatchObject({ status: 'open', body: { document: expect.anything() } });
    expect(reopened.body.editedAt).toBeDefined();
    expect(reopened.body.resolvedAt).toBeUndefined();
    expect(await p().counter()).toBe(open);

    const byOther = await t.rest('PUT', `${p().path}/comments/${id}`, { token: people.editor.token, body: { body: { markdown: 'hijack' } } });
    expect(byOther.status).toBe(403);
    expect((await t.rest('GET', `${p().path}/comments/${id}?format=markdown`, { token: acme.admin.token })).body.body.markdown).toBe('General remark, edited');

    expect((await t.rest('DELETE', `${p().path}/comments/${id}`, { token: people.editor.token })).status).toBe(403);
    expect((await t.rest('DELETE', `${p().path}/comments/${id}`, { token: acme.admin.token })).status).toBe(204);
    expect((await t.rest('GET', `${p().path}/comments/${id}`, { token: acme.admin.token })).status).toBe(404);
    expect(await p().counter()).toBe(open - 1);
  });

  it('aggregates reactions per emoji, one per user, and replies with their own reactions', async () => {
    const { body: c } = await t.rest('POST', `${p().path}/comments`, { token: people.commenter.token, body: { body: { markdown: 'React to me' } } });
    await t.rest('PUT', `${p().path}/comments/${c.id}`, { token: people.commenter.token, body: { addedReactions: ['👍', '🎉'] } });
    await t.rest('PUT', `${p().path}/comments/${c.id}`, { token: people.editor.token, body: { addedReactions: ['👍', '👍'] } });
    const reacted = await t.rest('PUT', `${p().path}/comments/${c.id}`, { token: people.commenter.token, body: { removedReactions: ['🎉'] } });
    expect(reacted.body.reactions).toEqual([
      { emoji: '👍', count: 2, users: [expect.objectContaining({ user: expect.objectContaining({ id: people.commenter.userId }) }), expect.objectContaining({ user: expect.objectContaining({ id: people.editor.userId }) })] },
    ]);

    const reply = await t.rest('POST', `${p().path}/comments/${c.id}/replies`, { token: people.editor.token, body: { body: { markdown: 'Agreed' } } });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ object: 'comment-reply', postedBy: { id: people.editor.userId }, permissions: { edit: true, delete: true } });
    const withReaction = await t.rest('PUT', `${p().path}/comments/${c.id}/replies/${reply.body.id}`, { token: people.commenter.token, body: { addedReactions: ['❤️'] } });
    expect(withReaction.body.reactions).toMatchObject([{ emoji: '❤️', count: 1 }]);
    expect((await t.rest('GET', `${p().path}/comments/${c.id}`, { token: people.reader.token })).body.replies).toBe(1);
    const replies = await t.rest('GET', `${p().path}/comments/${c.id}/replies?format=markdown`, { token: people.reader.token });
    expect(replies.body.items.map((r: { body: { markdown: string } }) => r.body.markdown)).toEqual(['Agreed']);
    expect((await t.rest('GET', `${p().path}/comments/${c.id}/replies/${reply.body.id}`, { token: people.reader.token })).body.id).toBe(reply.body.id);

    const commenters = await t.rest('GET', `${p().path}/commenters`, { token: people.reader.token });
    expect(commenters.body.items.map((m: { id: string }) => m.id).sort()).toEqual(expect.arrayContaining([people.commenter.userId, people.editor.userId]));

    expect((await t.rest('DELETE', `${p().path}/comments/${c.id}/replies/${reply.body.id}`, { token: people.editor.token })).status).toBe(204);
    expect((await t.rest('GET', `${p().path}/comments/${c.id}`, { token: people.reader.token })).body.replies).toBe(0);
  });

  it('refuses bad input with a clear 4xx and writes nothing', async () => {
    const before = await rowCounts();
    const { body: c } = await t.rest('GET', `${p().path}/comments?limit=1`, { token: acme.admin.token });
    const some = c.items[0].id;
    const cases: [string, string, unknown, number, RegExp][] = [
      ['POST', '/comments', { body: { markdown: '   ' } }, 400, /must not be empty/],
      ['POST', '/comments', { body: { markdown: 'x'.repeat(1_000_000) } }, 413, /larger than/],
      ['POST', '/comments', { body: { markdown: 'x'.repeat(20_001) } }, 400, /at most 20000/],
      ['POST', '/comments', { page: 'no-such-page', body: { markdown: 'hi' } }, 400, /no page no-such-page/],
      ['POST', '/comments', { node: 'n', body: { markdown: 'hi' } }, 400, /page is required/],
      ['POST', '/comments', {}, 400, /body is required/],
      ['PUT', `/comments/${some}`, { addedReactions: ['smile'] }, 400, /one emoji/],
      ['PUT', `/comments/${some}`, { resolved: 'yes' }, 400, /resolved must be true or false/],
      ['POST', `/comments/${some}/replies`, { body: { markdown: '' } }, 400, /must not be empty/],
    ];
    for (const [method, suffix, body, status, message] of cases) {
      const res = await t.rest(method, `${p().path}${suffix}`, { token: acme.admin.token, body });
      expect(res.status, `${method} ${suffix} ${JSON.stringify(res.body).slice(0, 200)}`).toBe(status);
      expect(res.body.error.message).toMatch(message);
    }
    const reader = await t.rest('POST', `${p().path}/comments`, { token: people.reader.token, body: { body: { markdown: 'hi' } } });
    expect(reader.status).toBe(403);
    expect(await rowCounts()).toEqual(before);
  });

  it('answers a foreign organization exactly like a missing comment', async () => {
    const { body: c } = await t.rest('POST', `${p().path}/comments`, { token: acme.admin.token, body: { body: { markdown: 'Private' } } });
    const foreign = await t.rest('GET', `${p().path}/comments/${c.id}`, { token: other.admin.token });
    const missing = await t.rest('GET', `${p().path}/comments/nope`, { token: other.admin.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(missing.body);
    const spaceMissing = await t.rest('GET', `/v1/spaces/nope/comments/${c.id}`, { token: other.admin.token });
    expect(foreign.body).toEqual(spaceMissing.body);
  });
});

describe('outdated targets', () => {
  it('marks a comment whose page left the content as outdated, keeping its title', async () => {
    const bench = await contentBench(() => t, () => acme, [{ title: 'Doomed', markdown: 'bye' }, { title: 'Stays' }]);
    const posted = await t.rest('POST', `/v1/spaces/${bench.spaceId}/comments`, { token: acme.admin.token, body: { page: pageId(bench, 'Doomed'), body: { markdown: 'note' } } });
    await bench.editor().remove('Doomed');
    const got = await t.rest('GET', `/v1/spaces/${bench.spaceId}/comments/${posted.body.id}`, { token: acme.admin.token });
    expect(got.body.target.page).toMatchObject({ title: 'Doomed', outdated: true });
    const rows = await t.db.select().from(comments).where(eq(comments.id, posted.body.id));
    expect(rows).toHaveLength(1);
  });
});
