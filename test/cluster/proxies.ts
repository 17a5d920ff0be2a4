/**
 * PgBouncer and HAProxy, Debian's binaries, each in a temp directory of its own on free loopback
 * ports, as child processes of whoever starts them (a test, or `npm run cluster`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { freePort, type Supervision } from '../faults/pg-cluster';

export const PGBOUNCER_BIN = process.env.QUIRE_PGBOUNCER_BIN ?? '/usr/sbin/pgbouncer';
export const HAPROXY_BIN = process.env.QUIRE_HAPROXY_BIN ?? '/usr/sbin/haproxy';

/** What is missing to run the cluster tests, or null; `npm run cluster` installs it instead. */
export function missingProxies(): string | null {
  const missing = [PGBOUNCER_BIN, HAPROXY_BIN].filter((bin) => !existsSync(bin));
  return missing.length ? `${missing.join(' and ')} not found (apt-get install -y pgbouncer haproxy)` : null;
}

export interface Proxy {
  port: number;
  url: string;
  log(): string;
  stop(): Promise<void>;
}

/** PgBouncer refuses to run as root: as root, it runs as the `postgres` user. */
function postgresUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('Running as root and there is no `postgres` user to run PgBouncer as');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/** Resolves once something accepts TCP connections on the port; rejects when `child` exits first. */
async function waitForPort(port: number, child: ChildProcess, what: string, log: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${what} exited (${child.exitCode ?? child.signalCode}):\n${log()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await delay(25);
  }
  throw new Error(`${what} did not listen on ${port} within 15 s:\n${log()}`);
}

function supervise(file: string, args: string[], dir: string, supervision: Supervision, options: { uid?: number; gid?: number } = {}) {
  const child = spawn(file, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], detached: supervision.ownProcessGroups, ...options });
  supervision.track?.({ child });
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (s: string) => (output += s));
  child.stderr!.setEncoding('utf8').on('data', (s: string) => (output += s));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    process.removeListener('exit', killOnExit);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  return { child, output: () => output, stop };
}

export interface PgBouncerOptions extends Supervision {
  /** The PostgreSQL server it pools. */
  serverPort: number;
  /** Server connections per database and user (default 4: fewer than the app's pool, as in production). */
  poolSize?: number;
  port?: number;
}

/**
 * PgBouncer 1.18 in transaction mode in front of 127.0.0.1:<serverPort>, every database name
 * passed through, trust auth for `quire`. The settings the app cannot send as startup parameters
 * through it (statement_timeout, jit) are set on each server connection by `connect_query`.
 */
export async function startPgBouncer(options: PgBouncerOptions): Promise<Proxy> {
  const owner = postgresUser();
  const dir = mkdtempSync(join(tmpdir(), 'quire-pgbouncer-'));
  options.track?.({ dir });
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const port = options.port ?? (await freePort());
  writeFileSync(join(dir, 'userlist.txt'), '"quire" ""\n');
  const statementTimeout = Number(process.env.STATEMENT_TIMEOUT_MS ?? 15_000);
  writeFileSync(
    join(dir, 'pgbouncer.ini'),
    `[databases]
* = host=127.0.0.1 port=${options.serverPort} connect_query='SET statement_timeout = ${statementTimeout}; SET jit = off'

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir =
auth_type = trust
auth_file = ${join(dir, 'userlist.txt')}
pool_mode = transaction
default_pool_size = ${options.poolSize ?? 4}
max_client_conn = 500
server_reset_query =
ignore_startup_parameters = extra_float_digits
admin_users = quire
logfile = ${join(dir, 'pgbouncer.log')}
`,
  );
  const started = supervise(PGBOUNCER_BIN, [join(dir, 'pgbouncer.ini')], dir, options, owner ?? {});
  const log = () => `${started.output()}${existsSync(join(dir, 'pgbouncer.log')) ? readFileSync(join(dir, 'pgbouncer.log'), 'utf8') : ''}`;
  try {
    await waitForPort(port, started.child, 'pgbouncer', log);
  } catch (error) {
    await started.stop();
    throw error;
  }
  return { port, url: `postgres://quire@127.0.0.1:${port}`, log, stop: started.stop };
}

export interface HaproxyOptions extends Supervision {
  /** Ports of the Quire instances it balances, on 127.0.0.1. */
  backends: number[];
  port?: number;
}

export interface Haproxy extends Proxy {
  /** HAProxy's statistics, one row per proxy and server (`;csv` of the stats page). */
  stats(): Promise<Record<string, string>[]>;
}

/**
 * HAProxy 2.6 balancing Quire instances: `/ready` is the health check (a draining instance answers
 * 503 and leaves the rotation before it closes), a request whose instance died before answering is
 * sent again to another one, but only GET and HEAD once they have reached an instance: a write
 * may have committed before the answer was lost.
 */
export async function startHaproxy(options: HaproxyOptions): Promise<Haproxy> {
  const dir = mkdtempSync(join(tmpdir(), 'quire-haproxy-'));
  options.track?.({ dir });
  const port = options.port ?? (await freePort());
  const statsPort = await freePort();
  const servers = options.backends.map((p, i) => `  server quire${i + 1} 127.0.0.1:${p} check`).join('\n');
  writeFileSync(
    join(dir, 'haproxy.cfg'),
    `global
  maxconn 2000

defaults
  mode http
  timeout connect 1s
  timeout client 30s
  timeout server 30s
  timeout check 1s
  # A failed attempt is tried again up to 3 times, on another instance (redispatch) each time.
  retries 3
  option redispatch 1
  retry-on all-retryable-errors

frontend quire
  bind 127.0.0.1:${port}
  # Writes are retried only when the connection failed, i.e. the request reached no instance.
  http-request disable-l7-retry unless METH_GET || METH_HEAD
  default_backend instances

backend instances
  balance roundrobin
  option httpchk GET /ready
  http-check expect status 200
  default-server inter 250ms fall 2 rise 2
${servers}

listen stats
  bind 127.0.0.1:${statsPort}
  stats enable
  stats uri /stats
`,
  );
  const started = supervise(HAPROXY_BIN, ['-db', '-f', join(dir, 'haproxy.cfg')], dir, options);
  try {
    await waitForPort(port, started.child, 'haproxy', started.output);
  } catch (error) {
    await started.stop();
    throw error;
  }
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    log: started.output,
    stop: started.stop,
    async stats() {
      const text = await (await fetch(`http://127.0.0.1:${statsPort}/stats;csv`)).text();
      const [header, ...lines] = text.trim().split('\n');
      const names = header.replace(/^# /, '').split(',');
      return lines.map((line) => Object.fromEntries(line.split(',').map((value, i) => [names[i], value])));
    },
  };
}
