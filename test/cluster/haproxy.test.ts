/**
 * Three instances behind HAProxy under a steady load of reads and writes: one instance is frozen
 * with requests in flight on it, then killed. No read fails (HAProxy sends the ones in flight again
 * to another instance), at most the write in flight on it fails; started again, it takes traffic.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client';
import { startPrivateCluster, type PrivateCluster } from '../faults/pg-cluster';
import { startServerProcess, type StartedServer } from '../faults/server-process';
import { buildOrganization, type OrgFixture } from '../support/factories';
import { startHaproxy, type Haproxy } from './proxies';
import { clusterBinaries, waitFor } from './require';

const bin = clusterBinaries('test/cluster/haproxy.test.ts');

interface Outcome {
  method: string;
  status: number | null;
  detail: string;
}

/**
 * HAProxy knows the instance by its port, so it comes back on the same one. Until it binds, the port
 * is free for anyone's outgoing connection to take: a port in use is tried again a few times.
 */
async function restartOn(port: number, env: Record<string, string>): Promise<StartedServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServerProcess({ ...env, PORT: String(port) });
    } catch (error) {
      if (attempt >= 5 || !String(error).includes('already in use')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

describe.skipIf(!bin)('three instances behind HAProxy', { timeout: 120_000 }, () => {
  let cluster: PrivateCluster;
  let haproxy: Haproxy;
  let acme: OrgFixture;
  let env: Record<string, string>;
  const ports: number[] = [];
  const servers: StartedServer[] = [];

  beforeAll(async () => {
    cluster = await startPrivateCluster(bin!);
    const database = await openDatabase({ url: cluster.url, migrate: true });
    acme = await buildOrganization(database.db, 'Balanced').finally(() => database.close());
    env = { DATABASE_URL: cluster.url, QUIRE_PUBLIC_URL: 'http://127.0.0.1', DATABASE_POOL_SIZE: '5' };
    // Each instance binds a port of its own choosing: a port found free beforehand can be taken by any
    // outgoing connection during the seconds an instance takes to load (seen in CI).
    servers.push(...(await Promise.all([0, 1, 2].map(() => startServerProcess({ ...env, PORT: '0' })))));
    ports.push(...servers.map((server) => Number(new URL(server.url).port)));
    haproxy = await startHaproxy({ backends: ports });
    await waitFor('every instance to be up in HAProxy', async () => (await serverRows()).every((row) => row.status === 'UP'));
  }, 120_000);
  afterAll(async () => {
    await haproxy?.stop();
    await Promise.all(servers.map((s) => s.stop()));
    await cluster?.stop();
  });

  const serverRows = async () => (await haproxy.stats()).filter((row) => row.pxname === 'instances' && row.svname.startsWith('quire'));
  const row = async (name: string) => (await serverRows()).find((r) => r.svname === name)!;

  it('loses no read when an instance dies with requests in flight, and takes it back once it is started again', async () => {
    const outcomes: Outcome[] = [];
    let running = true;
    const headers = { authorization: `Bearer ${acme.admin.token}`, 'content-type': 'application/json' };
    const call = async (method: string, path: string, body?: unknown) => {
      try {
        const res = await fetch(`${haproxy.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(10_000) });
        const text = await res.text();
        outcomes.push({ method, status: res.status, detail: res.ok ? '' : text.slice(0, 200) });
      } catch (error) {
        outcomes.push({ method, status: null, detail: String(error) });
      }
    };
    const loop = async (method: string) => {
      for (let i = 0; running && i < 5_000; i++) {
        if (method === 'GET') await call('GET', `/v1/orgs/${acme.organizationId}/members`);
        else await call('PATCH', `/v1/orgs/${acme.organizationId}`, { title: `Balanced ${i}` });
      }
    };
    const loops = [...Array.from({ length: 6 }, () => loop('GET')), loop('PATCH')];
    try {
      await waitFor('some load', () => outcomes.length > 60);
      // Frozen, the instance accepts connections and answers nothing: requests pile up on it.
      servers[1].child.kill('SIGSTOP');
      await waitFor('requests in flight on the frozen instance', async () => Number((await row('quire2')).scur) > 0);
      servers[1].child.kill('SIGKILL');
      await waitFor('HAProxy to take the dead instance out', async () => (await row('quire2')).status.startsWith('DOWN'));
      const afterKill = outcomes.length;
      await waitFor('load on the two left', () => outcomes.length > afterKill + 60);

      servers[1] = await restartOn(ports[1], env);
      await waitFor('HAProxy to take the instance back', async () => (await row('quire2')).status === 'UP');
      const served = Number((await row('quire2')).stot);
      await waitFor('the instance to take traffic again', async () => Number((await row('quire2')).stot) > served + 10);
    } finally {
      running = false;
      await Promise.all(loops);
    }
    const failedReads = outcomes.filter((o) => o.method === 'GET' && o.status !== 200);
    const failedWrites = outcomes.filter((o) => o.method === 'PATCH' && o.status !== 200);
    expect(failedReads).toEqual([]);
    // The one write loop has at most one request in flight on the instance that died.
    expect(failedWrites.length, JSON.stringify(failedWrites)).toBeLessThanOrEqual(1);
    const backend = (await haproxy.stats()).find((r) => r.pxname === 'instances' && r.svname === 'BACKEND')!;
    // The reads in flight on the dead instance were sent again (retried, and redispatched elsewhere).
    expect(Number(backend.wretr) + Number(backend.wredis)).toBeGreaterThan(0);
  });
});
