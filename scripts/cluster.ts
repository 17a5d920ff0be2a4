/**
 * `npm run cluster`: Quire scaled out on loopback, as test/cluster/ runs it. A private PostgreSQL
 * primary and a streaming replica of it, PgBouncer in transaction mode in front of the primary,
 * three Quire instances (the real server) and HAProxy balancing them. Missing Debian packages are
 * installed first. Prints the one URL to use last, runs until interrupted, then stops everything.
 *
 * QUIRE_CLUSTER_PORT sets HAProxy's port (default 4000); QUIRE_CLUSTER_INSTANCES the number of
 * instances (default 3). The data lives in temp directories and is gone once stopped: how the stop
 * is made certain is in cluster-supervisor.ts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { findPostgresBin, freePort, startPrivateCluster } from '../test/faults/pg-cluster';
import { spawnServerProcess, type ServerProcess } from '../test/faults/server-process';
import { HAPROXY_BIN, PGBOUNCER_BIN, startHaproxy, startPgBouncer } from '../test/cluster/proxies';
import { StopRequested, superviseCluster } from './cluster-supervisor';

const log = (message: string) => console.log(`[cluster] ${message}`);

function installMissing(): void {
  const packages = [
    !findPostgresBin() && 'postgresql-15',
    !existsSync(PGBOUNCER_BIN) && 'pgbouncer',
    !existsSync(HAPROXY_BIN) && 'haproxy',
  ].filter((p): p is string => Boolean(p));
  if (!packages.length) return;
  log(`installing ${packages.join(', ')} from Debian's packages`);
  const install = () => execFileSync('apt-get', ['install', '-y', '--no-install-recommends', ...packages], { stdio: 'inherit' });
  try {
    install();
  } catch {
    execFileSync('apt-get', ['update'], { stdio: 'inherit' });
    install();
  }
}

const supervisor = superviseCluster(log);
log(`pid ${process.pid}; should it die, its reaper (pid ${supervisor.reaperPid}) stops what ${supervisor.manifest} lists`);

async function main() {
  installMissing();
  const bin = findPostgresBin()!;
  const own = supervisor.supervision;
  const primary = await supervisor.starting('primary', () => startPrivateCluster(bin, own));
  log(`primary on ${primary.url}`);
  const replica = await supervisor.starting('replica', () => startPrivateCluster(bin, { ...own, replicaOf: primary }));
  log(`replica on ${replica.url}`);
  const bouncer = await supervisor.starting('pgbouncer', () => startPgBouncer({ ...own, serverPort: primary.port, poolSize: 20 }));
  log(`pgbouncer (transaction mode) on ${bouncer.url}/postgres`);

  const port = Number(process.env.QUIRE_CLUSTER_PORT || 4000);
  const count = Number(process.env.QUIRE_CLUSTER_INSTANCES || 3);
  const publicUrl = `http://127.0.0.1:${port}`;
  const env = { DATABASE_URL: `${bouncer.url}/postgres`, DATABASE_DIRECT_URL: primary.url, DATABASE_READ_URL: replica.url, QUIRE_PUBLIC_URL: publicUrl, RATE_LIMITS: 'off' };
  const ports: number[] = [];
  for (let i = 0; i < count; i++) ports.push(await supervisor.checkpoint(freePort()));
  const servers: ServerProcess[] = [];
  // The first one migrates and seeds the demo organization; the others find it done.
  for (const [i, instancePort] of ports.entries()) {
    supervisor.assertRunning();
    const server = spawnServerProcess({ ...env, PORT: String(instancePort) }, 120_000, own);
    supervisor.add(`quire ${i + 1}`, server.stop);
    servers.push(server);
    const url = await supervisor.checkpoint(server.listening);
    log(`quire ${i + 1} (pid ${server.child.pid}) on ${url}`);
    server.child.once('exit', (code, signal) => !supervisor.isStopping() && log(`quire ${i + 1} exited (${code ?? signal})`));
  }
  // The demo's token is printed just after the line that says it listens.
  for (let i = 0; i < 100 && !/Admin API token|No new token/.test(servers[0].output()); i++) await new Promise((r) => setTimeout(r, 20));
  const token = /Admin API token[^\n]*\n\s*\n\s*(\S+)/.exec(servers[0].output())?.[1];
  const haproxy = await supervisor.starting('haproxy', () => startHaproxy({ ...own, backends: ports, port }));
  if (token) log(`demo admin token: ${token}`);
  log('press Ctrl-C to stop everything');
  console.log(haproxy.url);
}

main().catch(async (error: unknown) => {
  // A stop begun during start-up is already under way: what failed since is its doing.
  if (error instanceof StopRequested || supervisor.isStopping()) return;
  console.error(`[cluster] could not start: ${error instanceof Error ? error.message : String(error)}`);
  await supervisor.stop(1);
});
