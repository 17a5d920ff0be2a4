import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../../src/app/app';
import { startSessionCache } from '../../../src/auth/sessions';
import { openDatabase, type Database } from '../../../src/db/client';
import { NotificationHub } from '../../../src/db/notification-hub';
import { COMMENT_CHANNEL } from '../../../src/modules/comments/live';
import { TEST_ORIGIN, type TestApp } from '../../support/clients';
import { gid } from '../../support/doors';
import type { Actor, OrgFixture } from '../../support/factories';
import { scenario } from '../../support/scenario';

/**
 * Subscriptions over server-sent events, fed by PostgreSQL's NOTIFY: a comment posted through one
 * instance reaches a subscriber of another instance on the same database; access is checked at
 * each event.
 */
let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;
let people: Record<'reader' | 'leaver', Actor>;
let spaceId: string;
let second: { app: App; hub: NotificationHub; stop(): Promise<void> };

beforeAll(async () => {
  ({ t, acme, other, people } = await scenario({ reader: ['read', 'Rita Reader'], leaver: ['read', 'Lee Leaver'] }));
  spaceId = (await t.rest('POST', `/v1/orgs/${acme.organizationId}/spaces`, { token: acme.admin.token, body: { title: 'Live' } })).body.id;
  // On PostgreSQL the second instance has its own pool and its own LISTEN, as another process would.
  const database: Database = t.database.url ? await openDatabase({ url: t.database.url }) : t.database;
  const sessions = await startSessionCache(database);
  const hub = new NotificationHub(database.listen);
  second = {
    app: createApp({ db: database.db, config: t.config, sessions: sessions.sessions, notifications: hub }),
    hub,
    stop: async () => {
      await sessions.stop();
      if (database !== t.database) await database.close();
    },
  };
});
afterAll(async () => {
  await second?.stop();
  await t?.close();
});

const SUBSCRIPTION = `subscription ($space: ID!, $page: String) { commentEvents(spaceId: $space, pageId: $page) { kind commentId comment { markdown status postedBy { id } } } }`;

/** Opens an SSE subscription; `next()` answers the next event's payload, or null once the stream ended. */
async function subscribe(app: App, token: string | null, variables: Record<string, unknown>) {
  const response = await app.fetch(
    new Request(`${TEST_ORIGIN}/graphql`, {
      method: 'POST',
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: SUBSCRIPTION, variables }),
    }),
  );
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  return {
    status: response.status,
    async next(): Promise<any> {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (/^event: complete/m.test(block)) return null;
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (data) return JSON.parse(data);
          continue;
        }
        const { value, done } = await reader.read();
        if (done) return null;
        buffer += value;
      }
    },
    close: async () => {
      // What a client that goes away does: its end of the stream is cancelled.
      await reader.cancel();
    },
  };
}

/** Waits until exactly `count` subscribers of the comment channel listen on the hub. */
async function listening(hub: NotificationHub, count: number): Promise<void> {
  while ((await hub.subscribers(COMMENT_CHANNEL)) !== count) await new Promise((resolve) => setImmediate(resolve));
}

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
