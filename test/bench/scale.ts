/**
 * `npm run bench:scale`: what the scale-out hops cost and what more instances buy on this machine.
 * A private PostgreSQL, PgBouncer (transaction mode) and HAProxy, as `npm run cluster` starts them;
 * a REST list read (`GET /v1/orgs/:id/members`) at 32 connections for BENCH_SECONDS (default 8) per row:
 * one instance direct on PostgreSQL, one through HAProxy and PgBouncer, then 2 and 3 instances.
 */
import autocannon from 'autocannon';
import { openDatabase } from '../../src/db/client';
import { findPostgresBin, freePort, startPrivateCluster } from '../faults/pg-cluster';
import { startServerProcess, type StartedServer } from '../faults/server-process';
import { startHaproxy, startPgBouncer } from '../cluster/proxies';
import { buildMember, buildOrganization } from '../support/factories';

const seconds = Number(process.env.BENCH_SECONDS || 8);
const bin = findPostgresBin();
if (!bin) throw new Error('PostgreSQL server binaries not found');
const primary = await startPrivateCluster(bin);
const bouncer = await startPgBouncer({ serverPort: primary.port, poolSize: 20 });
const database = await openDatabase({ url: primary.url, migrate: true });
const org = await buildOrganization(database.db, 'Bench');
for (let i = 0; i < 20; i++) await buildMember(database.db, org.organizationId, 'read');
await database.close();
const common = { QUIRE_PUBLIC_URL: 'http://127.0.0.1', RATE_LIMITS: 'off', LOG_LEVEL: 'info', METRICS: 'off' };

async function measure(url: string) {
  const path = `/v1/orgs/${org.organizationId}/members`;
  const result = await autocannon({ url: `${url}${path}`, connections: 32, duration: seconds, headers: { authorization: `Bearer ${org.admin.token}` } });
  return { rps: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

const rows: string[] = ['| setup | req/s | p50 ms | p99 ms | errors |', '|---|---|---|---|---|'];
const servers: StartedServer[] = [];
try {
  const direct = await startServerProcess({ ...common, DATABASE_URL: primary.url, PORT: '0' });
  await measure(direct.url); // warm-up: JIT, caches
  const m0 = await measure(direct.url);
  rows.push(`| 1 instance, direct to PostgreSQL | ${m0.rps} | ${m0.p50} | ${m0.p99} | ${m0.errors} |`);
  await direct.stop();
  const pooled = { ...common, DATABASE_URL: `${bouncer.url}/postgres`, DATABASE_DIRECT_URL: primary.url };
  for (let n = 1; n <= 3; n++) {
    const port = await freePort();
    servers.push(await startServerProcess({ ...pooled, PORT: String(port) }));
    const haproxy = await startHaproxy({ backends: servers.map((s) => Number(new URL(s.url).port)) });
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // health checks mark them up
    await measure(haproxy.url);
    const m = await measure(haproxy.url);
    rows.push(`| ${n} instance${n > 1 ? 's' : ''} through HAProxy and PgBouncer | ${m.rps} | ${m.p50} | ${m.p99} | ${m.errors} |`);
    await haproxy.stop();
  }
} finally {
  await Promise.all(servers.map((s) => s.stop()));
  await bouncer.stop();
  await primary.stop();
}
console.log(rows.join('\n'));
