/**
 * Fault test: the server starts before its database. It must wait, logging one line per attempt,
 * and serve once the database is up, without a restart. Runs on a private cluster like
 * pg-restart.test.ts, with the same skip rule.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { findPostgresBin, freePort, startPrivateCluster, type PrivateCluster } from './pg-cluster';
import { spawnServerProcess, type ServerProcess } from './server-process';

const bin = findPostgresBin();
if (!bin) {
  const message = 'PostgreSQL server binaries (initdb, pg_ctl, postgres) not found; set QUIRE_PG_BIN to their directory';
  if (process.env.QUIRE_REQUIRE_FAULT_TESTS === '1') throw new Error(message);
  console.warn(`Skipping test/faults/pg-late-start.test.ts: ${message}.`);
}

const RETRY_LINE = /^Database not reachable \(attempt (\d+): .*\); retrying in (\d+) ms$/gm;

describe.skipIf(!bin)('server started before its database', { timeout: 120_000 }, () => {
  let cluster: PrivateCluster | undefined;
  let server: ServerProcess | undefined;

  afterAll(async () => {
    try {
      await server?.stop();
    } finally {
      await cluster?.stop();
    }
  }, 60_000);

  it('retries with back-off, one log line per attempt, then serves', async () => {
    const port = await freePort();
    const httpPort = await freePort();
    server = spawnServerProcess({ DATABASE_URL: `postgres://quire@127.0.0.1:${port}/postgres`, PORT: String(httpPort), QUIRE_PUBLIC_URL: 'http://127.0.0.1' }, 90_000);
    const attempts = () => [...server!.output().matchAll(RETRY_LINE)];

    // Starting from source on a busy machine can take a while before the first attempt.
    const waitUntil = Date.now() + 60_000;
    while (attempts().length < 4 && !server.exit() && Date.now() < waitUntil) await sleep(50);
    expect(server.exit(), server.output()).toBeNull();
    expect(attempts().length, server.output()).toBeGreaterThanOrEqual(4);

    // While it waits, the port is bound and the probes say what they are for: liveness (/health)
    // passes, since the process serves; readiness (/ready) and the API answer 503 until the database is up.
    const early = (path: string) => fetch(`http://127.0.0.1:${httpPort}${path}`, { signal: AbortSignal.timeout(5_000) });
    expect((await early('/health')).status).toBe(200);
    const ready = await early('/ready');
    expect(ready.status).toBe(503);
    expect((await ready.json()).checks).toMatchObject({ database: 'starting' });
    const api = await early('/v1/orgs');
    expect(api.status).toBe(503);
    expect(api.headers.get('retry-after')).toBeTruthy();

    cluster = await startPrivateCluster(bin!, { port });
    const up = Date.now();
    const url = await server.listening;
    const waited = Date.now() - up;

    const lines = attempts();
    // Numbered in order, back-off doubling from 100 ms up to its 2 s ceiling.
    expect(lines.map((m) => Number(m[1]))).toEqual(lines.map((_, i) => i + 1));
    expect(lines.slice(0, 4).map((m) => Number(m[2]))).toEqual([100, 200, 400, 800]);
    expect(Math.max(...lines.map((m) => Number(m[2])))).toBeLessThanOrEqual(2_000);

    // First start on an empty database: it seeded the demo and printed the admin's token.
    const demoToken = () => /Admin API token[^\n]*\n\s*\n\s*(\S+)/.exec(server!.output())?.[1];
    for (const until = Date.now() + 5_000; !demoToken() && Date.now() < until; ) await sleep(20);
    const token = demoToken();
    expect(token, server.output()).toBeTruthy();
    const health = await fetch(`${url}/health`, { signal: AbortSignal.timeout(5_000) });
    expect(health.status).toBe(200);
    const orgs = await fetch(`${url}/v1/orgs`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(5_000) });
    expect(orgs.status).toBe(200);
    expect((await orgs.json()).items.map((o: { title: string }) => o.title)).toEqual(['Demo Organization']);
    console.log(`pg-late-start fault test: ${lines.length} attempts logged before the database came up; listening ${waited} ms after it did`);
  });
});
