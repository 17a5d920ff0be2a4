/**
 * `npm run bench`: throughput, latency and SQL statements per request for the hot read paths, on
 * the embedded database (or DATABASE_URL). Prints a table; nothing here asserts a speed.
 */
import { performance } from 'node:perf_hooks';
import { createApp } from '../../src/app/app';
import { openDatabase, StatementCounter } from '../../src/db/client';
import { organizationMembers } from '../../src/modules/members/table';
import { bootstrapOrganization } from '../../src/modules/members/service';
import { teamMembers, teams } from '../../src/modules/teams/table';
import { createApiToken } from '../../src/modules/users/service';
import { users } from '../../src/modules/users/table';
import { newId } from '../../src/lib/ids';
import { contentGrants } from '../../src/modules/permissions/table';
import { collections } from '../../src/modules/collections/table';
import { spaces } from '../../src/modules/spaces/table';

const ORGS = 3;
const MEMBERS_PER_ORG = Number(process.env.BENCH_MEMBERS ?? 5000);
const TEAMS_PER_ORG = 20;
const DURATION_MS = Number(process.env.BENCH_MS ?? 3000);

const counter = new StatementCounter();
const database = await openDatabase({ url: process.env.DATABASE_URL || undefined, counter, migrate: true });
const db = database.db;
const config = { port: 0, publicUrl: 'http://bench.test', appUrl: 'http://bench.test', dataDir: '' };

console.log(`seeding ${ORGS} organizations x ${MEMBERS_PER_ORG} members x ${TEAMS_PER_ORG} teams ...`);
const [admin] = await db.insert(users).values({ id: newId(), email: `bench-${newId(6)}@bench.test`, displayName: 'Bench Admin' }).returning();
const token = await createApiToken(db, admin.id);
const orgIds: string[] = [];
for (let o = 0; o < ORGS; o++) {
  const org = await bootstrapOrganization(db, { title: `Bench org ${o}`, adminUserId: admin.id });
  orgIds.push(org.id);
  for (let start = 0; start < MEMBERS_PER_ORG; start += 1000) {
    const batch = Array.from({ length: Math.min(1000, MEMBERS_PER_ORG - start) }, (_, i) => ({
      id: newId(),
      email: `m${o}-${start + i}-${newId(6)}@bench.test`,
      displayName: `Member ${start + i}`,
    }));
    await db.insert(users).values(batch);
    await db.insert(organizationMembers).values(
      batch.map((u, i) => ({ organizationId: org.id, userId: u.id, role: 'read' as const, joinedAt: new Date(Date.UTC(2024, 0, 1) + (start + i) * 1000) })),
    );
    if (start === 0) {
      const teamRows = await db
        .insert(teams)
        .values(Array.from({ length: TEAMS_PER_ORG }, (_, i) => ({ id: newId(), organizationId: org.id, title: `Team ${i}` })))
        .returning();
      await db.insert(teamMembers).values(
        teamRows.flatMap((t, i) => batch.slice(i * 10, i * 10 + 10).map((u) => ({ teamId: t.id, organizationId: org.id, userId: u.id }))),
      );
    }
  }
}

const SPACES = Number(process.env.BENCH_SPACES ?? 5000);
const COLLECTIONS = 100;
console.log(`seeding ${COLLECTIONS} collections (two levels) and ${SPACES} spaces in the first organization ...`);
// A reader who sees a third of the content by default and a few spaces more through a grant, so
// list scenarios exercise the SQL visibility filter rather than the admin shortcut.
const [reader] = await db.insert(users).values({ id: newId(), email: `bench-reader-${newId(6)}@bench.test`, displayName: 'Bench Reader' }).returning();
await db.insert(organizationMembers).values({ organizationId: orgIds[0], userId: reader.id, role: 'read' });
const readerToken = await createApiToken(db, reader.id);
const collectionRows = Array.from({ length: COLLECTIONS }, (_, i) => ({
  id: newId(),
  organizationId: orgIds[0],
  title: `Collection ${i}`,
  position: i,
  defaultLevel: (i % 3 === 0 ? 'inherit' : null) as 'inherit' | null,
}));
await db.insert(collections).values(collectionRows.map((c, i) => ({ ...c, parentId: i >= 10 ? collectionRows[i % 10].id : null })));
for (let start = 0; start < SPACES; start += 1000) {
  const batch = Array.from({ length: Math.min(1000, SPACES - start) }, (_, i) => ({
    id: newId(),
    organizationId: orgIds[0],
    parentId: collectionRows[(start + i) % COLLECTIONS].id,
    title: `Space ${start + i}`,
    revisionId: newId(),
    position: start + i,
    createdAt: new Date(Date.UTC(2024, 0, 1) + (start + i) * 1000),
  }));
  await db.insert(spaces).values(batch);
  await db.insert(contentGrants).values(
    batch.filter((_, i) => i % 50 === 1).map((sp) => ({ id: newId(), organizationId: orgIds[0], spaceId: sp.id, userId: reader.id, role: 'edit' as const })),
  );
}

const app = createApp({ db, config });
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
const readerHeaders = { authorization: `Bearer ${readerToken}`, 'content-type': 'application/json' };

async function lastPageToken(): Promise<string> {
  // Walk to a page deep in the list once, to time a deep keyset page.
  let page: string | undefined;
  for (let i = 0; i < Math.floor(MEMBERS_PER_ORG / 1000) - 1; i++) {
    const res = await app.fetch(new Request(`http://bench.test/v1/orgs/${orgIds[0]}/members?limit=1000${page ? `&page=${page}` : ''}`, { headers }));
    page = ((await res.json()) as { next?: { page: string } }).next?.page;
  }
  return page ?? '';
}
const deepPage = await lastPageToken();

const nested = `{ viewer { organizations { edges { node { title members(first: 50) { totalCount edges { node { role teamCount user { displayName } } } }
  teams(first: 20) { edges { node { title memberCount members(first: 10) { edges { node { role user { displayName } } } } } } } } } } } }`;

const spacesQuery = `{ viewer { organizations(first: 1) { edges { node { spaces(first: 100) { totalCount edges { node {
  title viewerCanEdit parent { title parent { title } } organization { title } } } } } } } } }`;

const scenarios: { name: string; request: () => Request }[] = [
  { name: 'REST spaces, first page of 100 (admin)', request: () => new Request(`http://bench.test/v1/orgs/${orgIds[0]}/spaces?limit=100`, { headers }) },
  {
    name: 'REST spaces, first page of 100 (reader: SQL visibility)',
    request: () => new Request(`http://bench.test/v1/orgs/${orgIds[0]}/spaces?limit=100`, { headers: readerHeaders }),
  },
  {
    name: 'GraphQL 100 spaces > parents > organization (reader)',
    request: () => new Request('http://bench.test/graphql', { method: 'POST', headers: readerHeaders, body: JSON.stringify({ query: spacesQuery }) }),
  },
  { name: 'REST GET /v1/orgs/{id}', request: () => new Request(`http://bench.test/v1/orgs/${orgIds[0]}`, { headers }) },
  { name: 'REST members, first page of 100', request: () => new Request(`http://bench.test/v1/orgs/${orgIds[0]}/members?limit=100`, { headers }) },
  {
    name: `REST members, page of 100 after row ${Math.max(0, MEMBERS_PER_ORG - 1000)}`,
    request: () => new Request(`http://bench.test/v1/orgs/${orgIds[0]}/members?limit=100&page=${deepPage}`, { headers }),
  },
  { name: 'REST teams, first page', request: () => new Request(`http://bench.test/v1/orgs/${orgIds[0]}/teams`, { headers }) },
  {
    name: `GraphQL nested: ${ORGS} orgs > 50 members + 20 teams > 10 members`,
    request: () => new Request('http://bench.test/graphql', { method: 'POST', headers, body: JSON.stringify({ query: nested }) }),
  },
];

const rows: Record<string, string | number>[] = [];
for (const s of scenarios) {
  for (let i = 0; i < 20; i++) await (await app.fetch(s.request())).arrayBuffer(); // warm-up
  counter.count = 0;
  const probe = await app.fetch(s.request());
  const text = await probe.text();
  if (probe.status !== 200 || text.includes('"errors"')) throw new Error(`${s.name}: HTTP ${probe.status} ${text.slice(0, 500)}`);
  const statements = counter.count;
  const latencies: number[] = [];
  const heapBefore = process.memoryUsage().heapUsed;
  const end = performance.now() + DURATION_MS;
  while (performance.now() < end) {
    const t0 = performance.now();
    await (await app.fetch(s.request())).arrayBuffer();
    latencies.push(performance.now() - t0);
  }
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))].toFixed(2);
  rows.push({
    scenario: s.name,
    'req/s': Math.round(latencies.length / (DURATION_MS / 1000)),
    'p50 ms': pct(0.5),
    'p95 ms': pct(0.95),
    'SQL/req': statements,
    'heap Δ MB': ((process.memoryUsage().heapUsed - heapBefore) / 1e6).toFixed(1),
  });
}

console.log(`\nQuire bench on ${database.kind}, one connection of requests in sequence, ${DURATION_MS} ms per scenario\n`);
console.table(rows);
await database.close();
