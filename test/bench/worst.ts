/**
 * `npm run bench:worst`: time and memory of the most expensive requests the GraphQL limits accept
 * (src/graphql/cost.ts), on data that fills every page they ask for. Each shape of query is grown
 * until one step more would exceed a limit, then run as an administrator and as a plain member,
 * three times each. Prints a table and the worst line; asserts nothing. Runs on PGlite, or on
 * PostgreSQL with DATABASE_URL (use a scratch database: it adds about 100,000 rows, and 100,000
 * pages for the content shapes of ./worst-content.ts, which show the request's work bounds).
 *
 * Memory: "heap Δ" is the peak of the V8 heap during the request over the heap before it (after a
 * full collection), "RSS Δ" the same for the resident set size; both sampled every 5 ms.
 */
import { performance } from 'node:perf_hooks';
import { parse, specifiedRules, validate } from 'graphql';
import { createApp } from '../../src/app/app';
import { openDatabase, StatementCounter } from '../../src/db/client';
import { encodeGlobalID } from '@pothos/plugin-relay';
import { newId } from '../../src/lib/ids';
import { QUERY_LIMITS, queryCost, queryShapeRule } from '../../src/graphql/cost';
import { schema } from '../../src/app/schema';
import { contentGrants } from '../../src/db/schema/permissions';
import { collections } from '../../src/db/schema/collections';
import { organizationMembers } from '../../src/db/schema/members';
import { organizations } from '../../src/db/schema/organizations';
import { spaces } from '../../src/db/schema/spaces';
import { teamMembers, teams } from '../../src/db/schema/teams';
import { createApiToken } from '../../src/modules/users/service';
import { users } from '../../src/db/schema/users';
import { contentShapes, seedContent } from './worst-content';

/** What the worst accepted request may take on the 2-core machine the budget was measured on. */
const TARGET = { ms: 3000, heapMB: 300 };
const FULL = 100; // the largest GraphQL page
const GRANTEES = 500;
const RUNS = Number(process.env.WORST_RUNS ?? 3);
const ONLY = process.env.WORST_ONLY?.split(','); // substrings of shape names, to run a few

// For calibration only: run the shapes against another budget than the one in force.
if (process.env.WORST_BUDGET) (QUERY_LIMITS as { cost: number }).cost = Number(process.env.WORST_BUDGET);

const counter = new StatementCounter();
const database = await openDatabase({ url: process.env.DATABASE_URL || undefined, counter, migrate: true });
const db = database.db;

async function insertAll<T>(rows: T[], insert: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += 1000) await insert(rows.slice(i, i + 1000));
}

/**
 * Every list a shape walks holds at least a full page. The administrator and 100 people belong to
 * 100 organizations of 100 spaces each. The first organization also has 100 teams of the same 100
 * people, and 100 collections in ten chains ten deep (each inheriting its parent's level), with
 * 100 spaces in each; each of its first 100 spaces and each collection grants a role to every one
 * of the 100 people and 100 teams. The member who runs the shapes besides the administrator is the
 * first of the 100 people, with the read role.
 */
async function seed() {
  const t0 = performance.now();
  const at = (i: number) => new Date(Date.UTC(2024, 0, 1) + i * 1000);
  const [admin] = await db.insert(users).values({ id: newId(), email: `worst-${newId(6)}@bench.test`, displayName: 'Worst Admin' }).returning();
  // The largest grant a mutation may give: 500 users and 500 teams.
  const everyone = Array.from({ length: GRANTEES }, (_, i) => ({ id: newId(), email: `w${i}-${newId(6)}@bench.test`, displayName: `Member ${i}` }));
  await db.insert(users).values(everyone);
  const people = everyone.slice(0, FULL);
  const orgs = Array.from({ length: FULL }, (_, i) => ({ id: newId(), title: `Worst org ${i}`, defaultRole: 'read' as const, createdAt: at(i) }));
  await db.insert(organizations).values(orgs);
  await insertAll(
    orgs.flatMap((o) => [
      { organizationId: o.id, userId: admin.id, role: 'admin' as const, joinedAt: at(0) },
      ...(o === orgs[0] ? everyone : people).map((p, i) => ({ organizationId: o.id, userId: p.id, role: 'read' as const, joinedAt: at(i + 1) })),
    ]),
    (b) => db.insert(organizationMembers).values(b),
  );
  const big = orgs[0].id;
  const allTeams = Array.from({ length: GRANTEES }, (_, i) => ({ id: newId(), organizationId: big, title: `Team ${i}`, createdAt: at(i) }));
  await db.insert(teams).values(allTeams);
  const teamRows = allTeams.slice(0, FULL);
  await insertAll(
    teamRows.flatMap((t) => people.map((p, i) => ({ teamId: t.id, organizationId: big, userId: p.id, addedAt: at(i) }))),
    (b) => db.insert(teamMembers).values(b),
  );
  const collectionRows = Array.from({ length: FULL }, (_, i) => ({
    id: newId(),
    organizationId: big,
    parentId: null as string | null,
    title: `Collection ${i}`,
    defaultLevel: 'inherit' as const,
    position: i,
    createdAt: at(i),
  }));
  collectionRows.forEach((c, i) => (c.parentId = i % 10 === 0 ? null : collectionRows[i - 1].id));
  await insertAll(collectionRows, (b) => db.insert(collections).values(b));
  // The organization lists spaces oldest first: its first 100 sit one in each collection.
  const spaceRows = [
    ...collectionRows.flatMap((c, ci) =>
      Array.from({ length: FULL }, (_, i) => ({
        id: newId(),
        organizationId: big,
        parentId: c.id,
        title: `Space ${ci}.${i}`,
        revisionId: newId(),
        defaultLevel: 'inherit' as const,
        position: i,
        createdAt: at(i * FULL + ci),
      })),
    ),
    ...orgs.slice(1).flatMap((o) =>
      Array.from({ length: FULL }, (_, i) => ({ id: newId(), organizationId: o.id, parentId: null, title: `Space ${i}`, revisionId: newId(), position: i, createdAt: at(i) })),
    ),
  ];
  await insertAll(spaceRows, (b) => db.insert(spaces).values(b));
  const firstSpaces = spaceRows.filter((s) => s.organizationId === big).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime()).slice(0, FULL);
  const grant = (target: { spaceId?: string; collectionId?: string }) => [
    ...people.map((p, i) => ({ id: newId(), organizationId: big, ...target, userId: p.id, role: 'edit' as const, createdAt: at(i) })),
    ...teamRows.map((t, i) => ({ id: newId(), organizationId: big, ...target, teamId: t.id, role: 'read' as const, createdAt: at(i) })),
  ];
  await insertAll(
    [...firstSpaces.flatMap((s) => grant({ spaceId: s.id })), ...collectionRows.flatMap((c) => grant({ collectionId: c.id }))],
    (b) => db.insert(contentGrants).values(b),
  );
  const tokens = { admin: await createApiToken(db, admin.id), member: await createApiToken(db, people[0].id) };
  console.log(`seeded on ${database.kind} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return {
    tokens,
    org: encodeGlobalID('Organization', big),
    spaceIds: firstSpaces.map((s) => encodeGlobalID('Space', s.id)),
    contentSpaceIds: firstSpaces.map((s) => s.id),
    allSpaceIds: spaceRows.filter((s) => s.organizationId === big).map((s) => encodeGlobalID('Space', s.id)),
    userIds: everyone.map((p) => encodeGlobalID('User', p.id)),
    userRestIds: everyone.map((p) => p.id),
    teamIds: allTeams.map((t) => encodeGlobalID('Team', t.id)),
  };
}

const data = await seed();
// WORST_ONLY=pages runs only these.
const withContent = !ONLY || ONLY.includes('pages');
if (withContent) await seedContent(db, data.contentSpaceIds);
const app = createApp({ db, config: { port: 0, publicUrl: 'http://bench.test', appUrl: 'http://bench.test', dataDir: '' } });
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) console.log('(no --expose-gc: memory figures include garbage of earlier runs)');

interface Run {
  status: number;
  ms: number;
  rssMB: number;
  heapMB: number;
  statements: number;
  bytes: number;
  error?: string;
}

async function run(query: string, token: string, variables?: Record<string, unknown>): Promise<Run> {
  gc?.();
  gc?.();
  const before = process.memoryUsage();
  let peakRss = before.rss;
  let peakHeap = before.heapUsed;
  const sample = () => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  };
  const timer = setInterval(sample, 5);
  counter.count = 0;
  const t0 = performance.now();
  const res = await app.fetch(
    new Request('http://bench.test/graphql', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: JSON.stringify({ query, variables }),
    }),
  );
  const text = await res.text();
  const ms = performance.now() - t0;
  sample();
  clearInterval(timer);
  const body = JSON.parse(text) as { errors?: { message: string }[] };
  return {
    status: res.status,
    ms,
    rssMB: (peakRss - before.rss) / 1e6,
    heapMB: (peakHeap - before.heapUsed) / 1e6,
    statements: counter.count,
    bytes: text.length,
    error: body.errors?.[0]?.message,
  };
}

/** Whether the limits accept a document, and its cost; checked without running it. */
function verdict(query: string, variables?: Record<string, unknown>): { ok: boolean; cost: number; why?: string } {
  if (Buffer.byteLength(query) > QUERY_LIMITS.documentBytes) return { ok: false, cost: NaN, why: 'bytes' };
  let doc;
  try {
    doc = parse(query, { maxLexicalTokens: QUERY_LIMITS.tokens });
  } catch (e) {
    return { ok: false, cost: NaN, why: String(e) };
  }
  const errors = validate(schema, doc, [...specifiedRules, queryShapeRule]);
  if (errors.length) return { ok: false, cost: NaN, why: errors[0].message };
  try {
    const cost = queryCost(schema, doc, undefined, variables ?? {}) ?? NaN;
    return { ok: cost <= QUERY_LIMITS.cost, cost, why: `cost ${cost}` };
  } catch (e) {
    return { ok: false, cost: NaN, why: String(e) };
  }
}

/** The largest n in [1, max] whose query the limits accept (acceptance is monotone in n for every shape). */
function largest(build: (n: number) => string, max: number, variables?: Record<string, unknown>): number {
  if (!verdict(build(1), variables).ok) return 0;
  let lo = 1;
  let hi = max;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (verdict(build(mid), variables).ok) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const A = QUERY_LIMITS.aliases;
const SPACE_ALL = `id restId title emoji icon visibility editMode language defaultLevel revisionId createdAt updatedAt
  counters { comments changeRequests changeRequestsOpen changeRequestsDraft }
  viewerCanView viewerCanComment viewerCanEdit viewerCanReview viewerCanMerge viewerCanAdminister viewerRole
  parent { title viewerRole } organization { title }`;
const SPACE_AUTHZ = 'viewerCanView viewerCanComment viewerCanEdit viewerCanReview viewerCanMerge viewerCanAdminister viewerRole';
const org = `organization(id: "${data.org}")`;

/** Each shape: a query growing with n, and the largest n that makes sense for it. */
const shapes: { name: string; build: (n: number) => string; max: number; variables?: Record<string, unknown> }[] = [
  ...(process.env.WORST_FIELDS ?? '').split(',').filter(Boolean).map((f) => ({
    name: `probe collections(100) > spaces(n) > ${f}`,
    build: (n: number) => `{ ${org} { collections(first: 100) { edges { node { spaces(first: ${n}) { edges { node { ${f.replace(/\+/g, ' ')} } } } } } } } }`,
    max: FULL,
  })),
  {
    name: 'orgs(n) > spaces(100) > every Space field',
    build: (n) => `{ viewer { organizations(first: ${Math.min(n, FULL)}) { edges { node { spaces(first: 100) { edges { node { ${SPACE_ALL} } } } } } } } }`,
    max: FULL,
  },
  {
    name: 'orgs(n) > spaces(100) > authorization fields',
    build: (n) => `{ viewer { organizations(first: ${n}) { edges { node { spaces(first: 100) { edges { node { ${SPACE_AUTHZ} } } } } } } } }`,
    max: FULL,
  },
  {
    name: 'collections(100) > spaces(n) > authorization fields',
    build: (n) => `{ ${org} { collections(first: 100) { edges { node { viewerRole spaces(first: ${n}) { edges { node { ${SPACE_AUTHZ} } } } } } } } }`,
    max: FULL,
  },
  {
    name: 'orgs(n) > members(n) > organization > members(n) > organization > members(n) (inline fragments)',
    build: (n) => {
      let inner = 'role user { displayName }';
      for (let level = 0; level < 3; level++) {
        inner = `members(first: ${n}) { ... on OrganizationMemberConnection { edges { node { ${level === 0 ? inner : `organization { ${inner} }`} } } } }`;
      }
      return `{ viewer { organizations(first: ${n}) { ... on OrganizationConnection { edges { node { ${inner} } } } } } }`;
    },
    max: FULL,
  },
  {
    name: 'teams(100) > members(n) > member > user (named fragments)',
    build: (n) => `query { ${org} { teams(first: 100) { ...T } } }
      fragment T on TeamConnection { edges { node { title members(first: ${n}) { ...M } } } }
      fragment M on TeamMembershipConnection { edges { node { role member { role teamCount user { displayName email } } } } }`,
    max: FULL,
  },
  {
    name: `${A} aliases x spaces(n) > a few fields`,
    build: (n) => `{ ${org} { ${range(A - 0)
      .map((i) => `s${i}: spaces(first: ${n}) { edges { node { title restId viewerCanEdit } } }`)
      .join(' ')} } }`,
    max: FULL,
  },
  {
    name: 'collections(100) > spaces(3) > n aliases x userAccess(first: 0) { totalCount } (a query each)',
    build: (n) => `{ ${org} { collections(first: 100) { edges { node { spaces(first: 3) { edges { node { ${range(n)
      .map((i) => `u${i}: ${i % 2 ? 'teamAccess' : 'userAccess'}(first: 0) { totalCount }`)
      .join(' ')} } } } } } } } }`,
    max: A,
  },
  {
    name: 'spaces(100) > userAccess(n) + teamAccess(n) (a query per parent)',
    build: (n) => `{ ${org} { spaces(first: 100) { edges { node { userAccess(first: ${n}) { totalCount edges { node { role grantedAt user { displayName } } } }
      teamAccess(first: ${n}) { totalCount edges { node { role grantedAt team { title memberCount } } } } } } } } }`,
    max: FULL,
  },
  {
    name: `n aliases x nodes(ids: ${QUERY_LIMITS.listArgument} spaces) > every Space field`,
    build: (n) => `query { ${range(n)
      // Distinct ids in each alias: the same node twice in one request fails (see the README).
      .map((i) => `n${i}: nodes(ids: ${JSON.stringify(data.allSpaceIds.slice(i * QUERY_LIMITS.listArgument, (i + 1) * QUERY_LIMITS.listArgument))}) { ...S }`)
      .join(' ')} } fragment S on Space { ${SPACE_ALL} }`,
    max: A,
  },
  {
    name: `n aliases x __schema (introspection, two list levels)`,
    build: (n) => `{ ${range(n)
      .map((i) => `s${i}: __schema { types { name kind fields { name args { name type { name kind ofType { name } } } type { name kind ofType { name kind ofType { name } } } } possibleTypes { name fields { name } } } }`)
      .join(' ')} }`,
    max: A,
  },
  {
    name: `n aliases x contentAccessGrant (${GRANTEES} users + ${GRANTEES} teams each)`,
    build: (n) => `mutation ($users: [ID!], $teams: [ID!]) { ${range(n)
      .map(
        (i) => `g${i}: contentAccessGrant(input: { contentId: "${data.spaceIds[i % FULL]}", role: ${i % 2 ? 'COMMENT' : 'EDIT'}, userIds: $users, teamIds: $teams }) {
          space { title } userErrors { message } }`,
      )
      .join(' ')} }`,
    variables: { users: data.userIds, teams: data.teamIds },
    max: A,
  },
  {
    name: `n aliases x teamMembersUpdate (add ${GRANTEES} members each)`,
    build: (n) => `mutation ($users: [String!]) { ${range(n)
      .map((i) => `t${i}: teamMembersUpdate(input: { teamId: "${data.teamIds[FULL + i]}", add: $users }) { team { memberCount } userErrors { message } }`)
      .join(' ')} }`,
    variables: { users: data.userRestIds },
    max: A,
  },
  {
    name: 'n aliases x spaceDuplicate',
    build: (n) => `mutation { ${range(n)
      .map((i) => `d${i}: spaceDuplicate(input: { spaceId: "${data.spaceIds[i % FULL]}" }) { space { title } userErrors { message } }`)
      .join(' ')} }`,
    max: A,
  },
  {
    name: 'n repeats of one field (validation at the token limit)',
    build: (n) => `{ viewer { ${'organizations(first: 1) { edges { node { title } } } '.repeat(n)} } }`,
    max: QUERY_LIMITS.tokens,
  },
];

const rows: Record<string, string | number>[] = [];
let worst = { ms: 0, heapMB: 0, rssMB: 0, msName: '', heapName: '' };
/** The dearest field, in time and memory, among shapes that the budget (not a cap) stops growing. */
let dearest = { us: 0, kb: 0 };
for (const shape of shapes) {
  if (ONLY && !ONLY.some((part) => shape.name.includes(part))) continue;
  const n = largest(shape.build, shape.max, shape.variables);
  if (n === 0) {
    console.log(`${shape.name}: refused even with n = 1 (${verdict(shape.build(1), shape.variables).why})`);
    continue;
  }
  const query = shape.build(n);
  const { cost } = verdict(query, shape.variables);
  const next = n < shape.max ? verdict(shape.build(n + 1), shape.variables).why : 'largest that makes sense';
  for (const [who, token] of Object.entries(data.tokens)) {
    const runs: Run[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await run(query, token, shape.variables));
    const bad = runs.find((r) => r.status !== 200);
    if (bad) throw new Error(`${shape.name}: HTTP ${bad.status} ${bad.error}`);
    const sorted = runs.map((r) => r.ms).sort((a, b) => a - b);
    const ms = sorted[Math.floor(RUNS / 2)];
    const heapMB = Math.max(...runs.map((r) => r.heapMB));
    const rssMB = Math.max(...runs.map((r) => r.rssMB));
    const name = `${shape.name.replace(/\bn aliases\b/, n === 1 ? '1 alias' : 'n aliases').replace(/\bn\b/, String(n))} [${who}]`;
    if (ms > worst.ms) worst = { ...worst, ms, msName: name };
    if (heapMB > worst.heapMB) worst = { ...worst, heapMB, heapName: name };
    worst.rssMB = Math.max(worst.rssMB, rssMB);
    const fillsBudget = cost >= QUERY_LIMITS.cost / 2;
    if (fillsBudget) dearest = { us: Math.max(dearest.us, (ms * 1000) / cost), kb: Math.max(dearest.kb, (heapMB * 1000) / cost) };
    rows.push({
      shape: name,
      cost: Number.isNaN(cost) ? '-' : cost,
      'median ms': ms.toFixed(0),
      'max ms': sorted[RUNS - 1].toFixed(0),
      'heap Δ MB': heapMB.toFixed(0),
      'RSS Δ MB': rssMB.toFixed(0),
      SQL: runs[0].statements,
      'KB out': (runs[0].bytes / 1e3).toFixed(0),
      'µs/field': fillsBudget ? ((ms * 1000) / cost).toFixed(0) : '',
      'KB/field': fillsBudget ? ((heapMB * 1000) / cost).toFixed(1) : '',
      errors: runs[0].error ? runs[0].error.slice(0, 40) : '',
    });
    if (process.env.WORST_VERBOSE) console.log(rows.at(-1), `n+1: ${next}`);
  }
}

if (rows.length) {
  console.log(`\nWorst accepted requests on ${database.kind}, limits ${JSON.stringify(QUERY_LIMITS)}, ${RUNS} runs each\n`);
  console.table(rows);
  console.log(`worst accepted query: ${worst.ms.toFixed(0)} ms (${worst.msName}); heap +${worst.heapMB.toFixed(0)} MB (${worst.heapName}); RSS +${worst.rssMB.toFixed(0)} MB at most`);
}
if (dearest.us > 0) {
  const budget = Math.floor(Math.min(TARGET.ms / (dearest.us / 1000), TARGET.heapMB / (dearest.kb / 1000)) / 1000) * 1000;
  console.log(
    `dearest field: ${dearest.us.toFixed(0)} µs, ${dearest.kb.toFixed(1)} KB of heap; a budget of ${budget} keeps every shape under ${TARGET.ms} ms and ${TARGET.heapMB} MB (now ${QUERY_LIMITS.cost})`,
  );
}
if (withContent) {
  console.log(`\nContent shapes (test/bench/worst-content.ts), administrator, ${RUNS} runs each, the first on a cold object cache\n`);
  console.table(await contentShapes(db, counter, data.tokens.admin, data.contentSpaceIds, RUNS));
}
await database.close();
