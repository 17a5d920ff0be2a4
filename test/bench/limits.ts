/**
 * `npm run bench:limits`: what the rate limiter costs. Two Quire children on the bench database,
 * one with rate limits on (limits too high to refuse anything) and one with them off, driven in
 * interleaved rounds through both doors with the small read and the 2-level read. Prints
 * requests per second, CPU per request and SQL statements per request of each, and the
 * difference. Nothing here asserts a speed.
 *
 * BENCH_ROUNDS (5), BENCH_SECONDS (5), BENCH_CONNECTIONS (16) and BENCH_SHAPES (`small`, `2-level`,
 * separated by ;) size it.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import autocannon from 'autocannon';
import { ADMIN_TOKEN, benchDatabaseUrl, ensureBenchData } from './data';
import { small } from './shapes/small';
import { twoLevel } from './shapes/two-level';
import type { BenchShape } from './shapes/shape';
import type { ChildStats } from './stats';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const ONLY = process.env.BENCH_SHAPES?.split(';').map((s) => s.trim());

type Mode = 'off' | 'on';
type Door = 'graphql' | 'rest';
interface Child {
  process: ChildProcess;
  port: number;
}

const url = benchDatabaseUrl();
await ensureBenchData(url);

async function start(mode: Mode): Promise<Child> {
  const env = { ...process.env, QUIRE_BENCH_DATABASE_URL: url, BENCH_RATE_LIMITS: mode };
  const child = fork(new URL('./quire-server.ts', import.meta.url), [], { env, execArgv: process.execArgv });
  const [message] = (await once(child, 'message')) as [{ type: string; port: number }];
  return { process: child, port: message.port };
}

async function stats(child: Child): Promise<ChildStats> {
  const answer = once(child.process, 'message');
  child.process.send({ type: 'stats' });
  return ((await answer) as [{ stats: ChildStats }])[0].stats;
}

function requests(shape: BenchShape, door: Door): autocannon.Request[] {
  const headers = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
  return shape.organizations.map((org) =>
    door === 'rest'
      ? { method: 'GET', path: shape.rest!(org), headers }
      : { method: 'POST', path: '/graphql', headers, body: JSON.stringify({ query: shape.graphql!.query, variables: shape.graphql!.variables(org) }) },
  );
}

interface Total {
  requests: number;
  seconds: number;
  cpuMicros: number;
  statements: number;
  failures: number;
}

async function measure(child: Child, list: autocannon.Request[], seconds: number): Promise<Total> {
  const before = await stats(child);
  const result = await autocannon({ url: `http://127.0.0.1:${child.port}`, connections: CONNECTIONS, duration: seconds, requests: list });
  const after = await stats(child);
  return {
    requests: result.requests.total,
    seconds: result.duration,
    cpuMicros: after.cpu - before.cpu,
    statements: after.statements - before.statements,
    failures: result.errors + result.timeouts + result.non2xx,
  };
}

const children: Record<Mode, Child> = { off: await start('off'), on: await start('on') };
const cases = [small, twoLevel].filter((s) => !ONLY || ONLY.includes(s.name)).flatMap((shape) => (['rest', 'graphql'] as const).map((door) => ({ shape, door })));
const totals = new Map<string, Total>();
const add = (key: string, run: Total) => {
  const t = totals.get(key) ?? { requests: 0, seconds: 0, cpuMicros: 0, statements: 0, failures: 0 };
  totals.set(key, { requests: t.requests + run.requests, seconds: t.seconds + run.seconds, cpuMicros: t.cpuMicros + run.cpuMicros, statements: t.statements + run.statements, failures: t.failures + run.failures });
};

console.log('warming up ...');
for (const { shape, door } of cases) for (const mode of ['off', 'on'] as const) await measure(children[mode], requests(shape, door), 2);
for (let round = 1; round <= ROUNDS; round++) {
  console.log(`round ${round} of ${ROUNDS} ...`);
  for (const { shape, door } of cases) {
    // Alternating which mode goes first, so neither always runs on a warmer machine.
    const order: Mode[] = round % 2 ? ['off', 'on'] : ['on', 'off'];
    for (const mode of order) add(`${shape.name}|${door}|${mode}`, await measure(children[mode], requests(shape, door), SECONDS));
  }
}

const rows = cases.map(({ shape, door }) => {
  const [off, on] = (['off', 'on'] as const).map((mode) => totals.get(`${shape.name}|${door}|${mode}`)!);
  const rps = (t: Total) => t.requests / t.seconds;
  const cpu = (t: Total) => t.cpuMicros / 1000 / t.requests;
  return {
    shape: shape.name,
    door,
    'req/s off': Math.round(rps(off)),
    'req/s on': Math.round(rps(on)),
    'throughput change': `${(((rps(on) - rps(off)) / rps(off)) * 100).toFixed(1)}%`,
    'CPU ms/req off': cpu(off).toFixed(3),
    'CPU ms/req on': cpu(on).toFixed(3),
    'SQL/req off': (off.statements / off.requests).toFixed(3),
    'SQL/req on': (on.statements / on.requests).toFixed(3),
    ...(off.failures + on.failures ? { failures: off.failures + on.failures } : {}),
  };
});
console.log(`\nRate limiter cost: ${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${SECONDS} s per mode\n`);
console.table(rows);
for (const child of Object.values(children)) child.process.send({ type: 'stop' });
