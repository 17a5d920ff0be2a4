import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../../src/app/app';
import type { NotificationHub } from '../../../src/db/notification-hub';
import { COMMENT_CHANNEL } from '../../../src/modules/comments/live';
import type { TestApp } from '../../support/clients';
import { gid } from '../../support/doors';
import { mutations } from '../../support/graphql';
import type { Actor, OrgFixture } from '../../support/factories';
import { listening as listeningOn, secondInstance, subscribe as subscribeSse, type SecondInstance } from '../../support/live';
import { scenario } from '../../support/scenario';

/**
 * Subscriptions over server-sent events, fed by PostgreSQL's NOTIFY: a comment posted through one
 * instance reaches a subscriber of another instance on the same database; access is checked at
 * each event.
 */
let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;
let people: Record<'reader' | 'leaver' | 'fan', Actor>;
let spaceId: string;
let second: SecondInstance;

beforeAll(async () => {
  ({ t, acme, other, people } = await scenario({ reader: ['read', 'Rita Reader'], leaver: ['read', 'Lee Leaver'], fan: ['comment', 'Fay Fan'] }));
  spaceId = (await t.rest('POST', `/v1/orgs/${acme.organizationId}/spaces`, { token: acme.admin.token, body: { title: 'Live' } })).body.id;
  second = await secondInstance(t);
});
afterAll(async () => {
  await second?.stop();
  await t?.close();
});

const SUBSCRIPTION = `subscription ($space: ID!, $page: String) { commentEvents(spaceId: $space, pageId: $page) { kind commentId comment { markdown status postedBy { id } } } }`;

const subscribe = (app: App, token: string | null, variables: Record<string, unknown>) => subscribeSse(app, token, SUBSCRIPTION, variables);
const listening = (hub: NotificationHub, count: number) => listeningOn(hub, COMMENT_CHANNEL, count);

const post = (markdown: string, token = acme.admin.token) => t.rest('POST', `/v1/spaces/${spaceId}/comments`, { token, body: { body: { markdown } } });

describe('comment subscriptions', () => {
  it('deliver a comment posted through one instance to a subscriber of another', async () => {
    const sub = await subscribe(second.app, people.reader.token, { space: gid('Space', spaceId) });
    expect(sub.status).toBe(200);
    await listening(second.hub, 1);
    const posted = await post('Hello from instance A');
    const event = await sub.next();
    expect(event.data.commentEvents).toEqual({ kind: 'ADDED', commentId: posted.body.id, comment: { markdown: 'Hello from instance A', status: 'OPEN', postedBy: { id: expect.any(String) } } });
    await t.rest('PUT', `/v1/spaces/${spaceId}/comments/${posted.body.id}`, { token: acme.admin.token, body: { resolved: true } });
    expect((await sub.next()).data.commentEvents).toMatchObject({ kind: 'RESOLVED', comment: { status: 'RESOLVED' } });
    await t.rest('DELETE', `/v1/spaces/${spaceId}/comments/${posted.body.id}`, { token: acme.admin.token });
    expect((await sub.next()).data.commentEvents).toEqual({ kind: 'DELETED', commentId: posted.body.id, comment: null });
    await sub.close();
    await listening(second.hub, 0);
  });

  it('show at each event the comment as it is now: reactions, replies and authors read afresh', async () => {
    const query = `subscription ($space: ID!) { commentEvents(spaceId: $space) { kind comment { markdown replyCount reactions { emoji count users { user { displayName } } } } } }`;
    const sub = await subscribeSse(second.app, people.reader.token, query, { space: gid('Space', spaceId) });
    await listening(second.hub, 1);
    const posted = await post('React to me');
    const commentId = gid('Comment', posted.body.id);
    const seen = async () => (await sub.next()).data.commentEvents;
    const admin = { user: { displayName: 'Admin of Acme' } };
    const fan = { user: { displayName: 'Fay Fan' } };
    expect(await seen()).toEqual({ kind: 'ADDED', comment: { markdown: 'React to me', replyCount: 0, reactions: [] } });

    // Through REST, then through GraphQL: each event shows the reactions of that moment.
    await t.rest('PUT', `/v1/spaces/${spaceId}/comments/${posted.body.id}`, { token: acme.admin.token, body: { addedReactions: ['👍'] } });
    expect(await seen()).toMatchObject({ kind: 'EDITED', comment: { reactions: [{ emoji: '👍', count: 1, users: [admin] }] } });
    const { succeed } = mutations(() => t, { token: () => people.fan.token });
    await succeed('commentUpdate', { commentId, add: ['👍', '🎉'] });
    expect(await seen()).toMatchObject({ kind: 'EDITED', comment: { reactions: [{ emoji: '👍', count: 2, users: [admin, fan] }, { emoji: '🎉', count: 1, users: [fan] }] } });
    await succeed('commentUpdate', { commentId, remove: ['👍'] });
    expect(await seen()).toMatchObject({ kind: 'EDITED', comment: { reactions: [{ emoji: '👍', count: 1, users: [admin] }, { emoji: '🎉', count: 1, users: [fan] }] } });

    // An author renamed between two events is shown under the new name.
    await t.db.execute(sql`update users set display_name = 'Fay Renamed' where id = ${people.fan.userId}`);
    await succeed('commentReplyPost', { commentId, markdown: 'A reply' });
    expect(await seen()).toEqual({
      kind: 'REPLIED',
      comment: { markdown: 'React to me', replyCount: 1, reactions: [{ emoji: '👍', count: 1, users: [admin] }, { emoji: '🎉', count: 1, users: [{ user: { displayName: 'Fay Renamed' } }] }] },
    });
    await sub.close();
    await listening(second.hub, 0);
  });

  it('refuse a subscriber who cannot see the space, like a missing one', async () => {
    const sub = await subscribe(second.app, other.admin.token, { space: gid('Space', spaceId) });
    const first = await sub.next();
    expect(first.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect(await sub.next()).toBeNull();
  });

  it('stop delivering to a subscriber who lost access, and end the stream', async () => {
    const sub = await subscribe(second.app, people.leaver.token, { space: gid('Space', spaceId) });
    await listening(second.hub, 1);
    await post('Before');
    expect((await sub.next()).data.commentEvents.kind).toBe('ADDED');
    expect((await t.rest('DELETE', `/v1/orgs/${acme.organizationId}/members/${people.leaver.userId}`, { token: acme.admin.token })).status).toBe(204);
    await post('After the leaver left');
    expect(await sub.next()).toBeNull();
  });
});

describe('refused subscriptions', () => {
  /** The one event of a refused subscription: its status, its errors, and that the stream then ends. */
  async function refusal(token: string | null, variables: Record<string, unknown>) {
    const sub = await subscribe(second.app, token, variables);
    const first = await sub.next();
    expect(first.data).toBeUndefined();
    expect(await sub.next()).toBeNull();
    return { status: sub.status, errors: first.errors as { message: string; extensions: { code: string } }[] };
  }

  it('answer a caller without a token like a query would: HTTP 200 and UNAUTHENTICATED', async () => {
    const res = await refusal(null, { space: gid('Space', spaceId) });
    expect(res.status).toBe(200);
    expect(res.errors).toEqual([expect.objectContaining({ path: ['commentEvents'], extensions: { code: 'UNAUTHENTICATED' } })]);
  });

  it("answer another organization's space exactly like a missing one: HTTP 200 and NOT_FOUND", async () => {
    const foreign = await refusal(other.admin.token, { space: gid('Space', spaceId) });
    const missing = await refusal(acme.admin.token, { space: gid('Space', 'doesNotExist00000000') });
    expect(foreign.status).toBe(200);
    expect(foreign.errors).toEqual([expect.objectContaining({ message: 'Space not found', extensions: { code: 'NOT_FOUND' } })]);
    expect(missing).toEqual(foreign);
  });

  it('answer bad input with a 200 and VALIDATION_FAILED, or a 400 and BAD_USER_INPUT for a variable of the wrong type', async () => {
    const wrongType = await refusal(acme.admin.token, { space: gid('Organization', acme.organizationId) });
    expect(wrongType.status).toBe(200);
    expect(wrongType.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    const notAnId = await refusal(acme.admin.token, { space: { id: spaceId } });
    expect(notAnId.status).toBe(400);
    expect(notAnId.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});
