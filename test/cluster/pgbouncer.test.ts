/**
 * Quire behind PgBouncer 1.18 in transaction mode, on a private PostgreSQL cluster: the driver's
 * prepared statements break there, `DATABASE_POOLED` (inferred from `DATABASE_DIRECT_URL`) turns
 * them off, and LISTEN (the session cache's invalidation and comment subscriptions across
 * instances), the migration lock and the job queue keep working with the direct URL beside it.
 */
import { GitBookAPI } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import { openDatabase, postgresOptions } from '../../src/db/client';
import { startPrivateCluster, type PrivateCluster } from '../faults/pg-cluster';
import { startServerProcess, type StartedServer } from '../faults/server-process';
import { gid } from '../support/doors';
import { buildMember, buildOrganization, type OrgFixture } from '../support/factories';
import { startPgBouncer, type Proxy } from './proxies';
import { clusterBinaries, waitFor } from './require';
import { openSubscription } from './subscription';

const bin = clusterBinaries('test/cluster/pgbouncer.test.ts');

describe.skipIf(!bin)('PgBouncer in transaction mode', { timeout: 120_000 }, () => {
  let cluster: PrivateCluster;
  let bouncer: Proxy;
  let pooledUrl = '';
  let acme: OrgFixture;
  const servers: StartedServer[] = [];

  beforeAll(async () => {
    cluster = await startPrivateCluster(bin!);
    bouncer = await startPgBouncer({ serverPort: cluster.port, poolSize: 2 });
    pooledUrl = `${bouncer.url}/postgres`;
    const database = await openDatabase({ url: pooledUrl, directUrl: cluster.url, pooled: true, migrate: true });
    try {
      acme = await buildOrganization(database.db, 'Pooled Org');
    } finally {
      await database.close();
    }
    const env = { DATABASE_URL: pooledUrl, DATABASE_DIRECT_URL: cluster.url, PORT: '0', QUIRE_PUBLIC_URL: 'http://127.0.0.1' };
    servers.push(...(await Promise.all([startServerProcess(env), startServerProcess(env)])));
  }, 120_000);
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await bouncer?.stop();
    await cluster?.stop();
  });

  /**
   * Transactions of two statements from a pool of 10 over PgBouncer's two server connections, with
   * the app's pooled settings and postgres.js's prepared statements on or off. (drizzle's queries are
   * unnamed unless `.prepare()`d, as the session lookup is; postgres.js prepares again a statement
   * found missing, but not inside a transaction: the failure has aborted it.)
   */
  async function load(prepare: boolean) {
    const client = postgres(pooledUrl, { ...postgresOptions(true, 10), prepare });
    try {
      const results = await Promise.allSettled(
        Array.from({ length: 200 }, (_, i) =>
          client.begin(async (tx) => [await tx`select ${i}::int as n`, await tx`select count(*) as users from users where display_name <> ${`x${i}`}`]),
        ),
      );
      return results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason?.message));
    } finally {
      await client.end({ timeout: 5 });
    }
  }

  /**
   * The failure made certain rather than left to timing: client A prepares a statement on the
   * server connection PgBouncer hands it; client B then holds that same connection (PgBouncer
   * reuses the last one released) in an open transaction, so A's next transaction runs on the
   * other server connection, where A's statement was never prepared.
   */
  async function handOver(prepare: boolean): Promise<string | null> {
    const a = postgres(pooledUrl, { ...postgresOptions(true, 1), prepare });
    const b = postgres(pooledUrl, { ...postgresOptions(true, 1), prepare });
    const query = (tx: postgres.TransactionSql) => tx`select count(*) as users from users where display_name <> ${'nobody'}`;
    try {
      await a.begin(query);
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let holding!: () => void;
      const holds = new Promise<void>((resolve) => (holding = resolve));
      const other = b.begin(async (tx) => {
        await tx`select 1`;
        holding();
        await held;
      });
      await holds;
      const outcome = await a.begin(query).then(
        () => null,
        (error: Error) => error.message,
      );
      release();
      await other;
      return outcome;
    } finally {
      await Promise.all([a.end({ timeout: 5 }), b.end({ timeout: 5 })]);
    }
  }

  it('breaks prepared statements, and runs with DATABASE_POOLED', async () => {
    // The two Quire processes share PgBouncer's connections too, and may take the one B was to
    // hold: a few tries make the hand-over happen. 26000: prepared statement "…" does not exist.
    const outcomes: (string | null)[] = [];
    while (outcomes.length < 8 && !outcomes.some(Boolean)) outcomes.push(await handOver(true));
    expect(outcomes.find(Boolean)).toMatch(/prepared statement .* does not exist/i);
    for (let i = 0; i < outcomes.length; i++) expect(await handOver(false)).toBeNull();
    expect(await load(false)).toEqual([]);
  });

  it('answers the official client and GraphQL through it, on both instances, with the job queue running', async () => {
    for (const server of servers) {
      const ready = await fetch(`${server.url}/ready`);
      expect(ready.status).toBe(200);
      const api = new GitBookAPI({ endpoint: server.url, authToken: acme.admin.token });
      const { data: orgs } = await api.orgs.listOrganizationsForAuthenticatedUser();
      expect(orgs.items.map((o) => o.title)).toContain('Pooled Org');
      const { data: org } = await api.orgs.updateOrganizationById(acme.organizationId, { title: `Pooled Org` });
      expect(org.title).toBe('Pooled Org');
      const { data: members } = await api.orgs.listMembersInOrganizationById(acme.organizationId, { limit: 5 });
      expect(members.items.length).toBeGreaterThan(0);
      const { data: team } = await api.orgs.createOrganizationTeam(acme.organizationId, { title: `Team on ${server.url}` });
      expect((await api.orgs.removeTeamFromOrganizationById(acme.organizationId, team.id)).status).toBe(204);
      const res = await fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${acme.admin.token}` },
        body: JSON.stringify({ query: '{ viewer { user { displayName } organizations { edges { node { title members { totalCount } } } } } }' }),
      });
      const body = await res.json();
      expect(body.errors).toBeUndefined();
      expect(body.data.viewer.organizations.edges[0].node.title).toBe('Pooled Org');
    }
    expect(servers.map((s) => s.output()).join('')).not.toMatch(/prepared statement/);
  });

  it("drops a removed member's session on the other instance (LISTEN on the direct URL)", async () => {
    const [a, b] = servers;
    const database = await openDatabase({ url: cluster.url });
    const member = await buildMember(database.db, acme.organizationId, 'read').finally(() => database.close());
    const path = `/v1/orgs/${acme.organizationId}`;
    const read = (token: string) => fetch(`${b.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    // Cached on b now; only the announcement can drop it before its time to live (30 s).
    expect((await read(member.token)).status).toBe(200);
    const removed = await fetch(`${a.url}${path}/members/${member.userId}`, { method: 'DELETE', headers: { authorization: `Bearer ${acme.admin.token}` } });
    expect(removed.status).toBe(204);
    await waitFor('instance b to refuse the removed member', async () => (await read(member.token)).status === 404, 5_000);
  });

  /** A GraphQL request to one instance; its answer must carry no error. */
  async function graphql(server: StartedServer, query: string, variables: Record<string, unknown> = {}) {
    const res = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${acme.admin.token}` },
      body: JSON.stringify({ query, variables }),
    });
    const body = await res.json();
    expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
    return body.data;
  }

  const PAGE_CREATE = `mutation ($input: PageCreateInput!) { pageCreate(input: $input) { userErrors { message } page { title } } }`;

  it('serves spaces, pages, change requests and comments, each step on the other instance', async () => {
    const [a, b] = servers;
    const api = (server: StartedServer) => new GitBookAPI({ endpoint: server.url, authToken: acme.admin.token });
    const { data: space } = await api(a).orgs.createSpace(acme.organizationId, { title: 'Pooled space' });
    const created = await graphql(b, PAGE_CREATE, { input: { spaceId: gid('Space', space.id), title: 'Welcome', markdown: 'Hello through PgBouncer.' } });
    expect(created.pageCreate).toEqual({ userErrors: [], page: { title: 'Welcome' } });
    expect((await api(a).spaces.listPages(space.id)).data.pages.map((p) => p.title)).toEqual(['Welcome']);

    const { data: cr } = await api(b).spaces.createChangeRequest(space.id, { subject: 'Pooled edits' });
    await graphql(a, PAGE_CREATE, { input: { spaceId: gid('Space', space.id), changeRequestId: gid('ChangeRequest', cr.id), title: 'Reviewed', markdown: 'Added in review.' } });
    expect((await api(b).spaces.listPagesInChangeRequest(space.id, cr.id)).data.pages.map((p) => p.title)).toEqual(['Welcome', 'Reviewed']);
    expect((await api(a).spaces.mergeChangeRequest(space.id, cr.id)).data.result).toBe('merge');
    expect((await api(b).spaces.listPages(space.id)).data.pages.map((p) => p.title)).toEqual(['Welcome', 'Reviewed']);

    const { data: comment } = await api(a).spaces.postCommentInSpace(space.id, { body: { markdown: 'Pooled remark' } });
    await api(b).spaces.postCommentReplyInSpace(space.id, comment.id, { body: { markdown: 'Pooled reply' } });
    const { data: comments } = await api(a).spaces.listCommentsInSpace(space.id);
    expect(comments.items.map((c) => [c.id, c.replies])).toEqual([[comment.id, 1]]);
    const read = await graphql(b, `query ($id: ID!) { node(id: $id) { ... on Space { title changeRequests(status: MERGED) { edges { node { subject } } } comments { totalCount } } } }`, { id: gid('Space', space.id) });
    expect(read.node).toEqual({ title: 'Pooled space', changeRequests: { edges: [{ node: { subject: 'Pooled edits' } }] }, comments: { totalCount: 1 } });
  });

  it('delivers a comment posted through one instance to a commentEvents subscriber of the other (NOTIFY pooled, LISTEN direct)', async () => {
    const [a, b] = servers;
    const api = new GitBookAPI({ endpoint: a.url, authToken: acme.admin.token });
    const { data: space } = await api.orgs.createSpace(acme.organizationId, { title: 'Live space' });
    const direct = postgres(cluster.url, { max: 1, onnotice: () => {} });
    const sub = await openSubscription(b.url, acme.admin.token, `subscription ($space: ID!) { commentEvents(spaceId: $space) { kind commentId comment { markdown } } }`, { space: gid('Space', space.id) });
    try {
      expect(sub.status).toBe(200);
      // Instance b subscribes to the channel on its direct connection when the first subscriber comes.
      const listening = async () => (await direct`select count(*)::int as n from pg_stat_activity where state = 'idle' and query ilike 'listen %quire_comments%'`)[0].n === 1;
      await waitFor('instance b to LISTEN for comment events', listening);
      const { data: posted } = await api.spaces.postCommentInSpace(space.id, { body: { markdown: 'Heard on the other side' } });
      expect((await sub.next()).data.commentEvents).toEqual({ kind: 'ADDED', commentId: posted.id, comment: { markdown: 'Heard on the other side' } });
      await api.spaces.postCommentReplyInSpace(space.id, posted.id, { body: { markdown: 'A reply' } });
      expect((await sub.next()).data.commentEvents).toMatchObject({ kind: 'REPLIED', commentId: posted.id });
    } finally {
      await sub.close();
      await direct.end({ timeout: 5 });
    }
  });
});
