import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../src/app/app';
import { loadConfig, type Config, type RateLimitSettings } from '../../src/config/config';
import { openDatabase, type Database } from '../../src/db/client';
import { rateLimitWindows } from '../../src/db/schema/rate-limits';
import type { JobQueue } from '../../src/jobs/queue';
import { startTestApp, TEST_ORIGIN, warmSession, type TestApp } from '../support/clients';
import { buildUser, type Actor } from '../support/factories';
import { startTestJobs } from '../support/jobs';

const LIMITS: RateLimitSettings = { windowSeconds: 60, perToken: 3, perIp: 2, authFailuresPerIp: 3 };
// Ten seconds into a minute: every window below has 50 s left.
const START = Date.UTC(2030, 0, 1, 0, 0, 10);

let t: TestApp;
let second: Database | null = null;
const clock = { now: new Date(START) };
let jobs: JobQueue;

beforeAll(async () => {
  t = await startTestApp();
  // A second pool on the same database, as another instance would have; PGlite has only one.
  if (t.database.url) second = await openDatabase({ url: t.database.url });
});
afterAll(async () => {
  await jobs?.stop();
  await second?.close();
  await t?.close();
});

function instance(options: { limits?: RateLimitSettings | null; other?: boolean } = {}): App {
  const config: Config = { port: 0, publicUrl: TEST_ORIGIN, appUrl: TEST_ORIGIN, dataDir: '' };
  if (options.limits !== null) config.rateLimits = options.limits ?? LIMITS;
  const db = options.other && second ? second.db : t.db;
  return createApp({ db, config, now: () => clock.now });
}

async function call(app: App, path: string, options: { token?: string; ip?: string; graphql?: string } = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const request = options.graphql
    ? new Request(`${TEST_ORIGIN}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query: options.graphql }) })
    : new Request(`${TEST_ORIGIN}${path}`, { headers });
  const response = await app.fetch(request, { ip: options.ip ?? '192.0.2.1' });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.json() };
}

const statuses = async (app: App, n: number, options: Parameters<typeof call>[2]) => {
  const seen: number[] = [];
  for (let i = 0; i < n; i++) seen.push((await call(app, '/v1/user', options)).status);
  return seen;
};

/** Each test in windows of its own (it may move on to the next one), so counts never carry over. */
let minute = 0;
function nextWindow() {
  minute += 2;
  clock.now = new Date(START + minute * 60_000);
}

describe('rate limits', () => {
  let user: Actor;
  beforeAll(async () => {
    user = await buildUser(t.db);
  });

  it('let a token make its limit of requests, then answer 429 with Retry-After until the window ends', async () => {
    nextWindow();
    const app = instance();
    expect(await statuses(app, 3, { token: user.token })).toEqual([200, 200, 200]);
    const refused = await call(app, '/v1/user', { token: user.token });
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBe('50');
    expect(refused.body).toEqual({ error: { code: 429, message: expect.stringContaining('50 s') } });

    const graphql = await call(app, '', { token: user.token, graphql: '{ viewer { user { displayName } } }' });
    expect(graphql.status).toBe(429);
    expect(graphql.retryAfter).toBe('50');
    expect(graphql.body.errors[0].extensions.code).toBe('RATE_LIMITED');

    // Another token of the same IP has its own count.
    const other = await buildUser(t.db);
    expect((await call(app, '/v1/user', { token: other.token })).status).toBe(200);

    clock.now = new Date(clock.now.getTime() + 50_000);
    expect((await call(app, '/v1/user', { token: user.token })).status).toBe(200);
  });

  it('are shared by instances on the same database', async () => {
    nextWindow();
    const a = instance();
    const b = instance({ other: true });
    expect(await statuses(a, 2, { token: user.token })).toEqual([200, 200]);
    expect(await statuses(b, 2, { token: user.token })).toEqual([200, 429]);
    expect(await statuses(a, 1, { token: user.token })).toEqual([429]);
  });

  it('count requests without a token per IP', async () => {
    nextWindow();
    const app = instance();
    const query = '{ viewer { user { displayName } } }';
    const anonymous = (ip: string) => call(app, '', { ip, graphql: query });
    expect((await anonymous('198.51.100.7')).status).toBe(200);
    expect((await anonymous('198.51.100.7')).status).toBe(200);
    const refused = await anonymous('198.51.100.7');
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].extensions.code).toBe('RATE_LIMITED');
    expect((await anonymous('198.51.100.8')).status).toBe(200);
    // A signed-in caller from that IP is counted on its token, not on the IP.
    expect((await call(app, '/v1/user', { ip: '198.51.100.7', token: user.token })).status).toBe(200);
  });

  it('refuse an IP that keeps sending bad tokens, even its next good one, and no other IP', async () => {
    nextWindow();
    const app = instance();
    const ip = '203.0.113.9';
    expect(await statuses(app, 3, { ip, token: 'not-a-token' })).toEqual([401, 401, 401]);
    const refused = await call(app, '/v1/user', { ip, token: 'still-not-a-token' });
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBe('50');
    expect(refused.body.error.code).toBe(429);
    // Once refused, a token is not even checked: a guess that happens to be right learns nothing.
    expect((await call(app, '/v1/user', { ip, token: user.token })).status).toBe(429);
    const graphql = await call(app, '', { ip, token: 'x', graphql: '{ viewer { user { displayName } } }' });
    expect(graphql.status).toBe(429);
    expect(graphql.body.errors[0].extensions.code).toBe('RATE_LIMITED');
    // Another instance learns it from the shared count at its first bad token.
    const b = instance({ other: true });
    expect((await call(b, '/v1/user', { ip, token: 'guess' })).status).toBe(429);
    expect((await call(b, '/v1/user', { ip, token: user.token })).status).toBe(429);

    expect((await call(app, '/v1/user', { ip: '203.0.113.10', token: user.token })).status).toBe(200);
  });

  it('cost one statement per lease of up to 100 requests far from the limit, not one per request', async () => {
    nextWindow();
    const config: Config = { port: 0, publicUrl: TEST_ORIGIN, appUrl: TEST_ORIGIN, dataDir: '', rateLimits: { ...LIMITS, perToken: 100_000 } };
    const app = createApp({ db: t.db, config, now: () => clock.now, sessions: t.sessions });
    await call(app, '/v1/user', { token: user.token });
    await warmSession(t, user.token);
    const before = t.database.counter.count;
    expect(new Set(await statuses(app, 100, { token: user.token }))).toEqual(new Set([200]));
    // The first request's lease left 99 permits; with 10 of them left, the next 100 were leased in
    // the background (a request that spent the last one first waited for that lease).
    expect(t.database.counter.count - before).toBe(1);
    expect(new Set(await statuses(app, 100, { token: user.token }))).toEqual(new Set([200]));
    expect(t.database.counter.count - before).toBe(2);
  });

  it('are off without settings: nothing is counted or refused', async () => {
    nextWindow();
    const app = instance({ limits: null });
    const before = await t.db.$count(rateLimitWindows);
    expect(new Set(await statuses(app, 10, { token: user.token }))).toEqual(new Set([200]));
    expect(new Set(await statuses(app, 10, { token: 'bad' }))).toEqual(new Set([401]));
    expect(await t.db.$count(rateLimitWindows)).toBe(before);
  });

  it('are read from the environment, on by default and off with RATE_LIMITS=off', () => {
    expect(loadConfig({}).rateLimits).toEqual({ windowSeconds: 60, perToken: 6000, perIp: 600, authFailuresPerIp: 20 });
    expect(loadConfig({ RATE_LIMITS: 'off' }).rateLimits).toBeUndefined();
    expect(loadConfig({ RATE_LIMIT_PER_TOKEN: '5' }).rateLimits?.perToken).toBe(5);
    expect(() => loadConfig({ RATE_LIMIT_PER_IP: '-1' })).toThrow(/RATE_LIMIT_PER_IP/);
    expect(() => loadConfig({ RATE_LIMITS: 'maybe' })).toThrow(/RATE_LIMITS/);
  });

  it('leave finished windows to the purge job, which keeps the current ones', async () => {
    nextWindow();
    const app = instance();
    await call(app, '/v1/user', { token: user.token });
    const current = new Date(clock.now.getTime() + 50_000);
    const finished = await t.db.$count(rateLimitWindows);
    expect(finished).toBeGreaterThan(1);
    // The job runs on the test clock, which is where this test's window is open.
    t.clock.now = clock.now;
    jobs = await startTestJobs(t);
    const { rows } = await t.database.executeSql("select cron from pgboss.schedule where name = 'purge-rate-limits'");
    expect(rows).toEqual([{ cron: '*/10 * * * *' }]);
    const output = (await jobs.runNow('purge-rate-limits')) as { purged: number };
    expect(output.purged).toBe(finished - 1);
    const left = await t.db.select().from(rateLimitWindows);
    expect(left.map((w) => w.windowEnd.getTime())).toEqual([current.getTime()]);
  });
});
