import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../src/app/app';
import { SessionCache, startSessionCache } from '../../src/auth/sessions';
import { openDatabase, StatementCounter, type Database } from '../../src/db/client';
import { revokeApiToken } from '../../src/modules/users/service';
import { startTestApp, TEST_ORIGIN, type TestApp } from '../support/clients';
import { buildMember, buildOrganization, type Actor, type OrgFixture } from '../support/factories';

/**
 * Two instances of the server on one database, each with its own session cache: a change made
 * through one reaches the other through the database's announcement, within a second.
 */
let t: TestApp;
let acme: OrgFixture;
let second: { app: App; sessions: SessionCache; counter: StatementCounter; stop(): Promise<void> };
/** An instance whose cache never hears of changes, to show the cache really answers. */
let deaf: { app: App; sessions: SessionCache };

async function instance(sessions: SessionCache, database: Pick<Database, 'db'>): Promise<App> {
  return createApp({ db: database.db, config: { port: 0, publicUrl: TEST_ORIGIN, appUrl: TEST_ORIGIN, dataDir: '' }, sessions });
}

beforeAll(async () => {
  t = await startTestApp();
  acme = await buildOrganization(t.db, 'Acme');
  // On PostgreSQL the second instance has its own pool, as another process would; PGlite has one.
  const counter = new StatementCounter();
  const database = t.database.url ? await openDatabase({ url: t.database.url, counter }) : t.database;
  const started = await startSessionCache(database);
  second = {
    app: await instance(started.sessions, database),
    sessions: started.sessions,
    counter: database === t.database ? t.database.counter : counter,
    stop: async () => {
      await started.stop();
      if (database !== t.database) await database.close();
    },
  };
  const sessions = new SessionCache();
  deaf = { app: await instance(sessions, t.database), sessions };
});
afterAll(async () => {
  await second?.stop();
  await t.close();
});

const get = (app: App, path: string, token: string) => app.fetch(new Request(`${TEST_ORIGIN}${path}`, { headers: { authorization: `Bearer ${token}` } }));

/** Asks until the answer is `status`; how long it took, in ms, or Infinity after 3 s. */
async function msUntil(app: App, path: string, token: string, status: number): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < 3000) {
    if ((await get(app, path, token)).status === status) return performance.now() - started;
    await delay(10);
  }
  return Infinity;
}

describe('sessions shared by instances through the database', () => {
  it('authenticates a repeat caller without a statement', async () => {
    const member = await buildMember(t.db, acme.organizationId, 'read');
    // The membership just written is announced too, and may arrive after the first request has
    // filled the cache, emptying it again: a few rounds let that announcement pass.
    let statements = -1;
    for (let round = 0; round < 5 && statements !== 0; round++) {
      expect((await get(second.app, `/v1/orgs/${acme.organizationId}`, member.token)).status).toBe(200);
      second.counter.count = 0;
      expect((await get(second.app, '/v1/user', member.token)).status).toBe(200);
      statements = second.counter.count;
    }
    expect(statements).toBe(0);
  });

  it('refuses a removed member on the other instance within a second', async () => {
    const member: Actor = await buildMember(t.db, acme.organizationId, 'read');
    const path = `/v1/orgs/${acme.organizationId}`;
    for (const app of [second.app, deaf.app]) expect((await get(app, path, member.token)).status).toBe(200);
    expect((await t.rest('DELETE', `${path}/members/${member.userId}`, { token: acme.admin.token })).status).toBe(204);
    expect(await msUntil(second.app, path, member.token, 404)).toBeLessThan(1000);
    // The instance that hears nothing still answers from memory: the cache is what answered.
    expect((await get(deaf.app, path, member.token)).status).toBe(200);
  });

  it('refuses a revoked token on the other instance within a second', async () => {
    const member = await buildMember(t.db, acme.organizationId, 'edit');
    for (const app of [second.app, deaf.app]) expect((await get(app, '/v1/user', member.token)).status).toBe(200);
    expect(await revokeApiToken(t.db, member.token)).toBe(true);
    expect(await msUntil(second.app, '/v1/user', member.token, 401)).toBeLessThan(1000);
    expect((await t.rest('GET', '/v1/user', { token: member.token })).status).toBe(401);
    expect((await get(deaf.app, '/v1/user', member.token)).status).toBe(200);
  });

  it('sees a role change made by another instance in the next request', async () => {
    const member = await buildMember(t.db, acme.organizationId, 'read');
    const org = `/v1/orgs/${acme.organizationId}`;
    expect((await get(second.app, org, member.token)).status).toBe(200);
    expect((await t.rest('PATCH', `${org}/members/${member.userId}`, { token: acme.admin.token, body: { role: 'admin' } })).status).toBe(200);
    const started = performance.now();
    let admin = false;
    while (!admin && performance.now() - started < 3000) {
      const res = await get(second.app, org, member.token);
      admin = ((await res.json()) as { permissions: { admin: boolean } }).permissions.admin;
      if (!admin) await delay(10);
    }
    expect(admin).toBe(true);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
