/**
 * A private, throwaway PostgreSQL cluster for fault tests: its own data directory in a temp dir,
 * its own free port on 127.0.0.1, trust auth, its own socket directory. Nothing is shared with the
 * PostgreSQL that DATABASE_URL points at, so a test may kill and restart it at will.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The directory holding initdb, pg_ctl and postgres, or null when this machine has none. */
export function findPostgresBin(): string | null {
  const candidates: string[] = [];
  if (process.env.QUIRE_PG_BIN) candidates.push(process.env.QUIRE_PG_BIN);
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => join(root, v, 'bin')));
  }
  for (const dir of (process.env.PATH ?? '').split(':')) if (dir) candidates.push(dir);
  return candidates.find((dir) => ['initdb', 'pg_ctl', 'postgres'].every((b) => existsSync(join(dir, b)))) ?? null;
}

/** PostgreSQL refuses to run as root: as root, run its binaries as the `postgres` user. */
function asPostgresUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('Running as root and there is no `postgres` user to run PostgreSQL as');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/** A port nobody listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface PrivateCluster {
  /** postgres://quire@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  /** `pg_ctl -m immediate restart`: every backend dies at once, as in a crash. Resolves once pg_ctl is done. */
  restartImmediate(): Promise<void>;
  /** The server's log so far, for failure messages. */
  log(): string;
  /** Stops the cluster (immediate) and removes its directory. Safe to call twice. */
  stop(): Promise<void>;
}

/** Something a helper creates that outlives its supervisor unless stopped: `npm run cluster` writes each down for its reaper. */
export type Tracked = { dir: string } | { child: ChildProcess } | { postmaster: string };

/** For a supervisor that must stop what a helper starts whatever happens to itself (`npm run cluster`). */
export interface Supervision {
  /**
   * Runs the helper's processes in process groups of their own: a terminal's Ctrl-C then reaches
   * only the supervisor, which stops them in its own order, and a tool killed half-way (pg_ctl
   * while its postmaster starts) cannot leave a server nobody knows of.
   */
  ownProcessGroups?: boolean;
  /** Told of each directory, child process and PostgreSQL data directory as soon as it exists. */
  track?(thing: Tracked): void;
}

export interface PrivateClusterOptions extends Supervision {
  port?: number;
  /**
   * Make this cluster a streaming replica of that one: `pg_basebackup -R` copies it (the primary's
   * pg_hba from initdb already lets loopback replication in) and the copy follows its WAL.
   */
  replicaOf?: Pick<PrivateCluster, 'port'>;
}

/** Starts a new cluster; on `port` if given, else on a free one. */
export async function startPrivateCluster(bin: string, options: PrivateClusterOptions = {}): Promise<PrivateCluster> {
  const owner = asPostgresUser();
  const dir = mkdtempSync(join(tmpdir(), 'quire-pgfault-'));
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const data = join(dir, 'data');
  const logFile = join(dir, 'server.log');
  options.track?.({ dir });
  // pg_ctl daemonizes the postmaster: nobody's child, it is found through data/postmaster.pid.
  options.track?.({ postmaster: data });

  const run = (tool: string, args: string[], timeoutMs = 60_000) => {
    const file = owner ? 'runuser' : join(bin, tool);
    const argv = owner ? ['-u', 'postgres', '--', join(bin, tool), ...args] : args;
    return runTool(file, argv, { cwd: dir, timeoutMs, detached: options.ownProcessGroups });
  };

  let stopped = false;
  // Should the test runner exit without afterAll (interrupted), take the cluster down with it.
  const killOnExit = () => {
    try {
      const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
      if (pid > 0) process.kill(pid, 'SIGQUIT');
    } catch {
      // not running
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', killOnExit);
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    process.removeListener('exit', killOnExit);
    try {
      if (existsSync(join(data, 'postmaster.pid'))) await run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', '-t', '30', 'stop'], 40_000);
    } catch {
      // pg_ctl failed: make sure the postmaster is gone before its directory is.
      try {
        const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
        if (pid > 0) process.kill(pid, 'SIGKILL');
      } catch {
        // no pid file: nothing runs
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  try {
    if (options.replicaOf) {
      await run('pg_basebackup', ['-h', '127.0.0.1', '-p', String(options.replicaOf.port), '-U', 'quire', '-D', data, '-R', '-X', 'stream', '-c', 'fast', '--no-sync']);
    } else {
      await run('initdb', ['-D', data, '-A', 'trust', '-U', 'quire', '-E', 'UTF8', '--no-sync', '--no-instructions']);
    }
    // The port is free when picked but may be taken before postgres binds it: try a few.
    for (let attempt = 1; ; attempt++) {
      const port = options.port ?? (await freePort());
      const serverOptions = [
        `-p ${port}`,
        '-c listen_addresses=127.0.0.1',
        `-c unix_socket_directories=${dir}`,
        '-c max_connections=60',
        '-c fsync=on',
      ].join(' ');
      try {
        await run('pg_ctl', ['-D', data, '-l', logFile, '-o', serverOptions, '-w', '-t', '30', 'start'], 40_000);
      } catch (error) {
        if (!options.port && attempt < 3 && /could not bind|already in use/i.test(readLog(logFile))) continue;
        throw new Error(`pg_ctl start failed: ${(error as Error).message}\n${readLog(logFile)}`, { cause: error });
      }
      return {
        url: `postgres://quire@127.0.0.1:${port}/postgres`,
        port,
        async restartImmediate() {
          await run('pg_ctl', ['-D', data, '-l', logFile, '-m', 'immediate', '-w', '-t', '30', 'restart'], 40_000);
        },
        log: () => readLog(logFile),
        stop,
      };
    }
  } catch (error) {
    await stop();
    throw error;
  }
}

/** execFile's contract (SIGTERM past the timeout, rejects with the output) plus `detached`, which execFile ignores. */
function runTool(file: string, args: string[], options: { cwd: string; timeoutMs: number; detached?: boolean }): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd: options.cwd, detached: options.detached, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (output += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (output += s));
    const timer = setTimeout(() => child.kill('SIGTERM'), options.timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`Command failed (${code ?? signal}): ${[file, ...args].join(' ')}\n${output}`));
    });
  });
}

function readLog(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
