/**
 * Reads on a streaming replica (pg_basebackup -R of a private primary), with read-your-writes:
 * replay is paused on the replica, a caller writes through one instance and reads through another,
 * and sees the write (their reads go to the primary) while another reader still reads the replica's
 * older state. With the replica stopped, reads keep working on the primary.
 */
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client';
import { startPrivateCluster, type PrivateCluster } from '../faults/pg-cluster';
import { startServerProcess, type StartedServer } from '../faults/server-process';
import { buildMember, buildOrganization, type Actor, type OrgFixture } from '../support/factories';
import { clusterBinaries, waitFor } from './require';

const bin = clusterBinaries('test/cluster/replica.test.ts');

describe.skipIf(!bin)('reads on a streaming replica', { timeout: 120_000 }, () => {
  let primary: PrivateCluster;
  let replica: PrivateCluster;
  let acme: OrgFixture;
  let reader: Actor;
  let a: StartedServer;
  let b: StartedServer;

  beforeAll(async () => {
    primary = await startPrivateCluster(bin!);
    replica = await startPrivateCluster(bin!, { replicaOf: primary });
    const database = await openDatabase({ url: primary.url, migrate: true });
    try {
      acme = await buildOrganization(database.db, 'Before');
      // An admin too, so that both see every space: only where they read from differs.
      reader = await buildMember(database.db, acme.organizationId, 'admin');
    } finally {
      await database.close();
    }
    const env = { DATABASE_URL: primary.url, DATABASE_READ_URL: replica.url, PORT: '0', QUIRE_PUBLIC_URL: 'http://127.0.0.1' };
    [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
    for (const server of [a, b]) await waitFor(`${server.url} to see the replica`, async () => (await readiness(server)).checks.replica === 'ok');
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await replica?.stop();
    await primary?.stop();
  });

  const readiness = async (server: StartedServer) => (await fetch(`${server.url}/ready`)).json();
  // Spaces, not the organization's own title: that one comes with the session, read on the primary.
  const path = () => `/v1/orgs/${acme.organizationId}/spaces`;
  const restTitle = async (server: StartedServer, token: string) => {
    const res = await fetch(`${server.url}${path()}`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    return ((await res.json()).items as { title: string }[]).map((s) => s.title).join(',') || 'Before';
  };
  const graphqlTitle = async (server: StartedServer, token: string) => {
    const res = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: '{ viewer { organizations { edges { node { spaces { edges { node { title } } } } } } } }' }),
    });
    const body = await res.json();
    expect(body.errors).toBeUndefined();
    const spaces = body.data.viewer.organizations.edges[0].node.spaces.edges as { node: { title: string } }[];
    return spaces.map((e) => e.node.title).join(',') || 'Before';
  };

  it("shows a caller their own write through another instance while the replica lags, and others the replica's state", async () => {
    const onReplica = postgres(replica.url, { max: 1, onnotice: () => {} });
    try {
      await onReplica`select pg_wal_replay_pause()`;
      const created = await fetch(`${a.url}${path()}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${acme.admin.token}` },
        body: JSON.stringify({ title: 'After' }),
      });
      expect(created.status).toBe(201);
      // The writer, through the other instance: REST and GraphQL read the primary.
      expect(await restTitle(b, acme.admin.token)).toBe('After');
      expect(await graphqlTitle(b, acme.admin.token)).toBe('After');
      // Another reader reads the paused replica: the lag is visible.
      expect(await restTitle(b, reader.token)).toBe('Before');
      expect(await graphqlTitle(a, reader.token)).toBe('Before');
      await onReplica`select pg_wal_replay_resume()`;
      await waitFor('the replica to replay the new space', async () => (await restTitle(b, reader.token)) === 'After');
      expect(await graphqlTitle(a, reader.token)).toBe('After');
    } finally {
      await onReplica`select pg_wal_replay_resume()`.catch(() => {});
      await onReplica.end({ timeout: 5 });
    }
  });

  it('keeps reading, on the primary, once the replica is stopped', async () => {
    await replica.stop();
    // At once: an instance that still believes the replica is up answers a failed read from the primary.
    for (const server of [a, b]) expect(await restTitle(server, reader.token)).toBe('After');
    for (const server of [a, b]) await waitFor(`${server.url} to notice the replica is down`, async () => String((await readiness(server)).checks.replica).startsWith('down'));
    for (const server of [a, b]) {
      expect((await fetch(`${server.url}/ready`)).status).toBe(200);
      expect(await graphqlTitle(server, reader.token)).toBe('After');
      expect(await restTitle(server, acme.admin.token)).toBe('After');
    }
  });
});
