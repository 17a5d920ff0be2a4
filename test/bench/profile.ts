/**
 * `npm run bench:profile -- <shape> [graphql|rest]`: where Quire's CPU goes for one shape of the
 * bench. Starts Quire (test/bench/quire-server.ts) under V8's sampling profiler, drives the shape
 * with autocannon for BENCH_SECONDS (10), and prints self time by package or source file, then
 * the dearest functions. Nothing is asserted; the .cpuprofile stays in BENCH_PROFILE_DIR for a
 * closer look in Chrome's DevTools.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { ADMIN_TOKEN, benchDatabaseUrl, READER_TOKEN } from './data';
import { SHAPES } from './shapes';

const [name = 'small', door = 'graphql'] = process.argv.slice(2);
const shape = SHAPES.find((s) => s.name === name);
if (!shape) throw new Error(`no shape "${name}"; shapes: ${SHAPES.map((s) => s.name).join(', ')}`);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const dir = process.env.BENCH_PROFILE_DIR ?? mkdtempSync(join(tmpdir(), 'quire-profile-'));

const child = fork(new URL('./quire-server.ts', import.meta.url), [], { env: { ...process.env, QUIRE_BENCH_DATABASE_URL: benchDatabaseUrl() } });
const [ready] = (await once(child, 'message')) as [{ port: number }];
const headers = { authorization: `Bearer ${shape.viewer === 'admin' ? ADMIN_TOKEN : READER_TOKEN}`, 'content-type': 'application/json', accept: 'application/json' };
const requests = shape.organizations.map((org) =>
  door === 'rest'
    ? { method: 'GET' as const, path: shape.rest!(org), headers }
    : { method: 'POST' as const, path: '/graphql', headers, body: JSON.stringify({ query: shape.graphql!.query, variables: shape.graphql!.variables(org) }) },
);
const file = join(dir, `${shape.name.replace(/\W+/g, '-')}-${door}.cpuprofile`);
const tell = async (message: object) => {
  const answer = once(child, 'message');
  child.send(message);
  await answer;
};
await autocannon({ url: `http://127.0.0.1:${ready.port}`, connections: 16, duration: 3, requests });
await tell({ type: 'profile-start' });
const run = await autocannon({ url: `http://127.0.0.1:${ready.port}`, connections: 16, duration: seconds, requests });
await tell({ type: 'profile-stop', file });
child.send({ type: 'stop' });
await once(child, 'exit');

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[]; startTime: number; endTime: number };
const total = profile.nodes.reduce((n, node) => n + node.hitCount, 0);
const where = (url: string) => {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  const own = /\/(src\/.+|test\/.+)$/.exec(url);
  if (own) return own[1];
  return url.startsWith('node:') ? url : url ? 'other' : '(native / GC / idle)';
};
const sum = (key: (n: ProfileNode) => string) => {
  const by = new Map<string, number>();
  for (const node of profile.nodes) by.set(key(node), (by.get(key(node)) ?? 0) + node.hitCount);
  return [...by].sort((a, b) => b[1] - a[1]);
};
const idle = profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').reduce((n, node) => n + node.hitCount, 0);
const busy = total - idle;
const share = (hits: number) => `${((100 * hits) / busy).toFixed(1)}%`;
console.log(`${shape.name} through ${door}: ${run.requests.total} requests in ${seconds} s (${Math.round(run.requests.average)} req/s), p50 ${run.latency.p50} ms, p99 ${run.latency.p99} ms`);
console.log(`busy samples ${busy} of ${total}; profile ${file}\n`);
console.log('Self time by package or file (of busy time):');
for (const [key, hits] of sum((n) => (n.callFrame.functionName === '(idle)' ? '(idle)' : n.callFrame.functionName.startsWith('(') ? n.callFrame.functionName : where(n.callFrame.url))).slice(0, 25)) {
  if (key !== '(idle)') console.log(`  ${share(hits).padStart(6)}  ${key}`);
}
console.log('\nDearest functions (self):');
for (const [key, hits] of sum((n) => `${n.callFrame.functionName || '(anonymous)'}  ${where(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`).slice(0, 40)) {
  if (!key.startsWith('(idle)')) console.log(`  ${share(hits).padStart(6)}  ${key}`);
}
