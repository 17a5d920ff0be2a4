/**
 * `npm run cluster`: Quire scaled out on loopback, as test/cluster/ runs it. A private PostgreSQL
 * primary and a streaming replica of it, PgBouncer in transaction mode in front of the primary,
 * three Quire instances (the real server) and HAProxy balancing them. Missing Debian packages are
 * installed first. Prints the one URL to use last, runs until interrupted, then stops everything.
 *
 * QUIRE_CLUSTER_PORT sets HAProxy's port (default 4000); QUIRE_CLUSTER_INSTANCES the number of
 * instances (default 3). The data lives in temp directories and is gone once stopped.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { findPostgresBin, freePort, startPrivateCluster } from '../test/faults/pg-cluster';
import { startServerProcess, type StartedServer } from '../test/faults/server-process';
import { HAPROXY_BIN, PGBOUNCER_BIN, startHaproxy, startPgBouncer } from '../test/cluster/proxies';

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

const stops: { name: string; stop: () => Promise<void> }[] = [];
let stopping: Promise<void> | null = null;
function stopAll(code: number): Promise<void> {
  stopping ??= (async () => {
    for (const { name, stop } of stops.reverse()) {
      log(`stopping ${name}`);
      await stop().catch((error: unknown) => log(`${name} did not stop cleanly: ${String(error)}`));
    }
    process.exit(code);
  })();
  return stopping;
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void stopAll(0));

async function main() {
  installMissing();
  const bin = findPostgresBin()!;
  const primary = await startPrivateCluster(bin);
  stops.push({ name: 'primary', stop: primary.stop });
  log(`primary on ${primary.url}`);
  const replica = await startPrivateCluster(bin, { replicaOf: primary });
  stops.push({ name: 'replica', stop: replica.stop });
  log(`replica on ${replica.url}`);
  const bouncer = await startPgBouncer({ serverPort: primary.port, poolSize: 20 });
  stops.push({ name: 'pgbouncer', stop: bouncer.stop });
  log(`pgbouncer (transaction mode) on ${bouncer.url}/postgres`);

  const port = Number(process.env.QUIRE_CLUSTER_PORT || 4000);
  const count = Number(process.env.QUIRE_CLUSTER_INSTANCES || 3);
  const publicUrl = `http://127.0.0.1:${port}`;
  const env = { DATABASE_URL: `${bouncer.url}/postgres`, DATABASE_DIRECT_URL: primary.url, DATABASE_READ_URL: replica.url, QUIRE_PUBLIC_URL: publicUrl, RATE_LIMITS: 'off' };
  const ports: number[] = [];
  for (let i = 0; i < count; i++) ports.push(await freePort());
  const servers: StartedServer[] = [];
  // The first one migrates and seeds the demo organization; the others find it done.
  for (const [i, instancePort] of ports.entries()) {
    const server = await startServerProcess({ ...env, PORT: String(instancePort) });
    servers.push(server);
    stops.push({ name: `quire ${i + 1}`, stop: server.stop });
    log(`quire ${i + 1} (pid ${server.child.pid}) on ${server.url}`);
    server.child.once('exit', (code, signal) => !stopping && log(`quire ${i + 1} exited (${code ?? signal})`));
  }
  // The demo's token is printed just after the line that says it listens.
  for (let i = 0; i < 100 && !/Admin API token|No new token/.test(servers[0].output()); i++) await new Promise((r) => setTimeout(r, 20));
  const token = /Admin API token[^\n]*\n\s*\n\s*(\S+)/.exec(servers[0].output())?.[1];
  const haproxy = await startHaproxy({ backends: ports, port });
  stops.push({ name: 'haproxy', stop: haproxy.stop });
  if (token) log(`demo admin token: ${token}`);
  log('press Ctrl-C to stop everything');
  console.log(haproxy.url);
}

main().catch(async (error: unknown) => {
  console.error(`[cluster] could not start: ${error instanceof Error ? error.message : String(error)}`);
  await stopAll(1);
});
