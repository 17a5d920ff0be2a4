/**
 * Fault test: PostgreSQL crashes and restarts (`pg_ctl -m immediate restart`) while the real server,
 * in a child process, takes a steady stream of writes over REST and GraphQL.
 *
 * It runs on a private cluster of its own (temp dir, free port on 127.0.0.1), whatever DATABASE_URL
 * says, so it runs in both CI passes and never touches the shared database. It needs PostgreSQL's
 * server binaries (initdb, pg_ctl); without them it is skipped, unless QUIRE_REQUIRE_FAULT_TESTS=1
 * (CI) makes that a failure.
 *
 * Without patches/postgres+3.4.9.patch the server dies here with postgres.js' uncaught
 * `TypeError: Cannot read properties of null (reading 'write')`.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client';
import { buildOrganization } from '../support/factories';
import { findPostgresBin, startPrivateCluster, type PrivateCluster } from './pg-cluster';
import { startServerProcess, type StartedServer } from './server-process';

/** Every request must have ended (answered or failed) within this. */
const DEADLINE_MS = 5_000;
/** After the database accepts connections again, a write must succeed within this. */
const RECOVERY_MS = 1_000;
const LOOPS = { rest: 6, graphql: 2 };
/** Bounds on the load: per loop, and for the whole run. */
const MAX_REQUESTS_PER_LOOP = 3_000;
const MAX_LOAD_MS = 60_000;

const bin = findPostgresBin();
if (!bin) {
  const message = 'PostgreSQL server binaries (initdb, pg_ctl, postgres) not found; set QUIRE_PG_BIN to their directory';
  if (process.env.QUIRE_REQUIRE_FAULT_TESTS === '1') throw new Error(message);
  console.warn(`Skipping test/faults/pg-restart.test.ts: ${message}.`);
}

interface Outcome {
  loop: string;
  title: string;
  start: number;
  end: number;
  /** HTTP status; null when the request itself failed (connection refused or reset, timeout). */
  status: number | null;
  ok: boolean;
  /** What a failed request said: the error code, or why it failed without a response. */
  detail: string;
  retryAfter: string | null;
}

describe.skipIf(!bin)('PostgreSQL restart under write load', { timeout: 150_000 }, () => {
  let cluster: PrivateCluster | undefined;
  let server: StartedServer | undefined;
  let token = '';
  let organizationId = '';
  let organizationGlobalId = '';

  beforeAll(async () => {
    cluster = await startPrivateCluster(bin!);
    const database = await openDatabase({ url: cluster.url, migrate: true });
    try {
      const org = await buildOrganization(database.db, 'Fault Org');
      token = org.admin.token;
      organizationId = org.organizationId;
    } finally {
      await database.close();
    }
    server = await startServerProcess({
      DATABASE_URL: cluster.url,
      PORT: '0',
      QUIRE_PUBLIC_URL: 'http://127.0.0.1',
      // Deadlines well inside DEADLINE_MS: the test checks they hold under a crash.
      REQUEST_TIMEOUT_MS: '4000',
      STATEMENT_TIMEOUT_MS: '3000',
      DATABASE_CONNECT_TIMEOUT_MS: '2000',
    });
    const res = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: '{ viewer { organizations { edges { node { id } } } } }' }),
    });
    organizationGlobalId = (await res.json()).data.viewer.organizations.edges[0].node.id;
  }, 120_000);

  afterAll(async () => {
    try {
      await server?.stop();
    } finally {
      await cluster?.stop();
    }
  }, 60_000);

  it('keeps serving: no crash, no lost write, 503 while down, recovery within a second', async () => {
    const srv = server!;
    const pg = cluster!;
    const outcomes: Outcome[] = [];
    const t0 = Date.now();
    let stopAt = t0 + MAX_LOAD_MS;

    async function restWrite(loop: string, title: string): Promise<Outcome> {
      const start = Date.now();
      try {
        const res = await fetch(`${srv.url}/v1/orgs/${organizationId}/spaces`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ title }),
          signal: AbortSignal.timeout(DEADLINE_MS * 2),
        });
        const body = await res.json().catch(() => null);
        const ok = res.status === 201 && body?.title === title;
        const detail = ok ? '' : `${res.status} ${JSON.stringify(body).slice(0, 200)}`;
        const shaped = !ok && body?.error?.code === res.status && typeof body.error.message === 'string';
        return { loop, title, start, end: Date.now(), status: res.status, ok, detail: shaped || ok ? detail : `unshaped ${detail}`, retryAfter: res.headers.get('retry-after') };
      } catch (error) {
        return { loop, title, start, end: Date.now(), status: null, ok: false, detail: describeError(error), retryAfter: null };
      }
    }

    async function graphqlWrite(loop: string, title: string): Promise<Outcome> {
      const start = Date.now();
      try {
        const res = await fetch(`${srv.url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', authorization: `Bearer ${token}` },
          body: JSON.stringify({
            query: 'mutation($input: SpaceCreateInput!) { spaceCreate(input: $input) { space { id title } userErrors { message } } }',
            variables: { input: { organizationId: organizationGlobalId, title } },
          }),
          signal: AbortSignal.timeout(DEADLINE_MS * 2),
        });
        const body = await res.json().catch(() => null);
        const ok = res.status === 200 && !body?.errors && body?.data?.spaceCreate?.space?.title === title;
        const codes = (body?.errors ?? []).map((e: { extensions?: { code?: string } }) => e.extensions?.code).join(',');
        const detail = ok ? '' : `${res.status} ${codes || JSON.stringify(body).slice(0, 200)}`;
        return { loop, title, start, end: Date.now(), status: res.status, ok, detail, retryAfter: res.headers.get('retry-after') };
      } catch (error) {
        return { loop, title, start, end: Date.now(), status: null, ok: false, detail: describeError(error), retryAfter: null };
      }
    }

    const loops = [
      ...Array.from({ length: LOOPS.rest }, (_, i) => ({ name: `r${i}`, write: restWrite })),
      ...Array.from({ length: LOOPS.graphql }, (_, i) => ({ name: `g${i}`, write: graphqlWrite })),
    ].map(async ({ name, write }) => {
      for (let i = 0; i < MAX_REQUESTS_PER_LOOP && Date.now() < stopAt; i++) {
        const outcome = await write(name, `fault ${name} ${i}`);
        outcomes.push(outcome);
        // A dead server refuses at once: do not spin.
        if (outcome.status === null) await sleep(50);
      }
    });

    // Warm up: every loop has written, so the pool's connections are open and busy.
    while (outcomes.filter((o) => o.ok).length < 40 && Date.now() < t0 + 15_000) await sleep(20);
    expect(outcomes.filter((o) => o.ok).length, 'writes before the restart').toBeGreaterThanOrEqual(40);

    const tKill = Date.now();
    const probe = probeDatabase(pg.url, tKill + 30_000);
    await pg.restartImmediate();
    const tRestarted = Date.now();
    const { down, ready } = await probe;
    // Keep the load on for a while after the database is back: the pool must not stay wedged.
    stopAt = Math.min(stopAt, Math.max(ready, tRestarted) + 3_000);
    await Promise.all(loops);

    // Stop here if the server died: the rest would only pile up noise.
    const exit = srv.exit();
    const health = exit ? null : await fetch(`${srv.url}/health`, { signal: AbortSignal.timeout(DEADLINE_MS) }).then((r) => r.status, describeError);

    const check = await openDatabase({ url: pg.url });
    const titles = new Set<string>();
    try {
      const rows = await check.executeSql("select title from spaces where title like 'fault %'");
      for (const row of rows.rows as { title: string }[]) titles.add(row.title);
    } finally {
      await check.close();
    }

    const acknowledged = outcomes.filter((o) => o.ok);
    const lost = acknowledged.filter((o) => !titles.has(o.title)).map((o) => o.title);
    const failed = outcomes.filter((o) => !o.ok);
    const outage = outcomes.filter((o) => o.end >= down && o.start <= ready);
    const firstAfter = acknowledged.filter((o) => o.start >= down).sort((a, b) => a.end - b.end)[0];
    const recoveryMs = firstAfter ? Math.max(0, firstAfter.end - ready) : Infinity;
    const lateFailures = failed.filter((o) => o.start >= ready + RECOVERY_MS);
    const duration = (o: Outcome) => o.end - o.start;
    const summary = {
      requests: outcomes.length,
      acknowledged: acknowledged.length,
      lost: lost.length,
      failed: failed.length,
      failuresByDetail: countBy(failed, (o) => (o.status === 503 ? `503 ${o.loop[0] === 'r' ? 'REST' : 'GraphQL'}` : o.detail)),
      outageMs: ready - down,
      restartCommandMs: tRestarted - tKill,
      requestsDuringOutage: outage.length,
      maxRequestMsDuringOutage: Math.max(0, ...outage.map(duration)),
      maxRequestMs: Math.max(0, ...outcomes.map(duration)),
      recoveryMs: Number.isFinite(recoveryMs) ? recoveryMs : 'no write succeeded after the outage',
      rowsInDatabase: titles.size,
      serverExit: exit,
      health,
    };
    console.log(`pg-restart fault test: ${JSON.stringify(summary, null, 2)}`);
    const context = () => `${JSON.stringify(summary)}\n--- server output (tail) ---\n${srv.output().slice(-4000)}`;

    expect(exit, `the server process died:\n${context()}`).toBeNull();
    expect(health, context()).toBe(200);
    expect(lost, context()).toEqual([]);
    expect(outcomes.filter((o) => duration(o) > DEADLINE_MS).map((o) => `${o.title}: ${duration(o)} ms`), context()).toEqual([]);
    expect(failed.filter((o) => o.status !== 503).map((o) => `${o.title}: ${o.detail}`), context()).toEqual([]);
    expect(failed.filter((o) => o.retryAfter === null).map((o) => o.title), 'every 503 carries Retry-After').toEqual([]);
    expect(failed.filter((o) => !/^503 (SERVICE_UNAVAILABLE|\{"error":\{"code":503)/.test(o.detail)).map((o) => o.detail), 'error shapes').toEqual([]);
    expect(recoveryMs, context()).toBeLessThanOrEqual(RECOVERY_MS);
    expect(lateFailures.map((o) => `${o.title}: ${o.detail}`), 'failures after recovery').toEqual([]);
    expect(acknowledged.filter((o) => o.start >= ready + RECOVERY_MS).length, 'writes after recovery').toBeGreaterThan(0);
  });
});

/**
 * Watches the database from outside with fresh connections: `down` is the first moment a new
 * session failed, `ready` the first moment after it that one ran `select 1` again.
 */
async function probeDatabase(url: string, giveUpAt: number): Promise<{ down: number; ready: number }> {
  const { default: postgres } = await import('postgres');
  let down: number | null = null;
  while (Date.now() < giveUpAt) {
    const at = Date.now();
    const sql = postgres(url, { max: 1, connect_timeout: 1, onnotice: () => {} });
    try {
      await sql`select 1`;
      if (down !== null) return { down, ready: at };
    } catch {
      down ??= at;
    } finally {
      await sql.end({ timeout: 0 }).catch(() => {});
    }
    await sleep(20);
  }
  throw new Error(down === null ? 'the database never went down' : 'the database did not come back within 30 s');
}

function describeError(error: unknown): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  return `no response: ${e.name}: ${e.cause?.code ?? e.cause?.message ?? e.message}`;
}

function countBy<T>(items: T[], key: (item: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of items) out[key(item)] = (out[key(item)] ?? 0) + 1;
  return out;
}
