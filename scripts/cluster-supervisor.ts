/**
 * What makes `npm run cluster` stop everything it started, whatever arrives and in whatever order.
 *
 * - SIGINT, SIGTERM and SIGHUP (terminal closed) start a stop of the parts in reverse order; past
 *   20 s, or at a second signal, everything is killed at once and the process exits.
 * - A signal during start-up stops what has started and what is being started, and nothing more
 *   starts: `starting` and `checkpoint` throw `StopRequested` once a stop has begun.
 * - Each directory, child and PostgreSQL data directory is written to a manifest as soon as it
 *   exists, and a detached reaper (cluster-reaper.sh) stops what it lists once this process is gone,
 *   however it went (SIGKILL runs no handler, and pg_ctl's postmasters are nobody's children).
 *   A clean stop removes the manifest, and the reaper exits without doing anything.
 */
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Supervision, Tracked } from '../test/faults/pg-cluster';

const REAPER = join(dirname(fileURLToPath(import.meta.url)), 'cluster-reaper.sh');
/** A graceful stop still running past it gives way to killing. */
const STOP_DEADLINE_MS = 20_000;
/**
 * npm forwards the SIGINT and SIGTERM it receives to the script, so a signal sent to the terminal's
 * process group (Ctrl-C) arrives twice under `npm run`: one repeat this soon is that copy.
 */
const NPM_COPY_MS = 1_000;

/** Thrown into the start-up sequence once a stop has begun: start nothing more. */
export class StopRequested extends Error {
  constructor() {
    super('stop requested during start-up');
  }
}

export interface ClusterSupervisor {
  /** For the helpers: their own process groups, and each thing they create written down. */
  supervision: Required<Supervision>;
  /** Where the manifest is, and the reaper's pid, for the user (and the test) to see. */
  manifest: string;
  reaperPid: number | undefined;
  /** Starts a part unless a stop has begun; it is stopped with the rest even if still starting. */
  starting<T extends { stop(): Promise<void> }>(name: string, start: () => Promise<T>): Promise<T>;
  /** Registers how to stop a part that exists already. */
  add(name: string, stop: () => Promise<void>): void;
  /** Waits for `promise`, then throws `StopRequested` if a stop began meanwhile. */
  checkpoint<T>(promise: Promise<T>): Promise<T>;
  /** Throws `StopRequested` if a stop has begun. */
  assertRunning(): void;
  isStopping(): boolean;
  /** Stops every part in reverse order, then exits with `code`. */
  stop(code: number): Promise<never>;
}

export function superviseCluster(log: (message: string) => void): ClusterSupervisor {
  // A closed terminal fails every later write with EIO: the stop must go on regardless.
  process.stdout.on('error', () => {});
  process.stderr.on('error', () => {});

  const manifestDir = mkdtempSync(join(tmpdir(), 'quire-cluster-'));
  const manifest = join(manifestDir, 'manifest');
  writeFileSync(manifest, '');
  let finished = false;
  const write = (line: string) => {
    if (finished) return;
    try {
      appendFileSync(manifest, `${line}\n`);
    } catch (error) {
      log(`could not write ${manifest}: ${String(error)}`);
    }
  };
  const reaper = spawn('sh', [REAPER, String(process.pid), manifest], { detached: true, stdio: 'ignore' });
  reaper.unref();

  const track = (thing: Tracked) => {
    if ('dir' in thing) return write(`dir ${thing.dir}`);
    if ('postmaster' in thing) return write(`postmaster ${thing.postmaster}`);
    const pid = thing.child.pid;
    if (pid === undefined) return;
    write(`pid ${pid}`);
    // Its pid may be someone else's by the time the reaper runs.
    thing.child.once('exit', () => write(`exited ${pid}`));
  };

  const reapNow = () => {
    spawnSync('sh', [REAPER, 'now', manifest], { stdio: 'ignore', timeout: 30_000 });
  };
  const killNow = (reason: string): never => {
    log(`${reason}: killing everything at once`);
    reapNow();
    finished = true;
    process.exit(1);
  };
  // process.exit from anywhere, or an uncaught error: nothing is left behind either.
  process.on('exit', () => {
    if (!finished) reapNow();
  });

  const parts: { name: string; stop: () => Promise<void> }[] = [];
  let stopping: Promise<never> | null = null;
  const stop = (code: number): Promise<never> =>
    (stopping ??= (async () => {
      const deadline = setTimeout(() => killNow(`still stopping after ${STOP_DEADLINE_MS / 1000} s`), STOP_DEADLINE_MS);
      for (const { name, stop: stopPart } of [...parts].reverse()) {
        log(`stopping ${name}`);
        await stopPart().catch((error: unknown) => log(`${name} did not stop cleanly: ${String(error)}`));
      }
      clearTimeout(deadline);
      finished = true;
      // The reaper sees the manifest gone and exits.
      rmSync(manifestDir, { recursive: true, force: true });
      log('everything stopped');
      process.exit(code);
    })());

  const underNpm = process.env.npm_lifecycle_event === 'cluster';
  const npmPid = process.ppid;
  let last: { signal: NodeJS.Signals; at: number; copied: boolean } | null = null;
  const onSignal = (signal: NodeJS.Signals) => {
    const now = Date.now();
    const npmCopies = underNpm && process.ppid === npmPid && signal !== 'SIGHUP';
    if (npmCopies && last && !last.copied && last.signal === signal && now - last.at < NPM_COPY_MS) {
      last.copied = true;
      return;
    }
    const first = !last;
    last = { signal, at: now, copied: false };
    if (!first) killNow(`${signal} again`);
    log(`${signal}: stopping everything (a second signal kills everything at once)`);
    void stop(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, onSignal);

  const assertRunning = () => {
    if (stopping) throw new StopRequested();
  };
  const add = (name: string, stopPart: () => Promise<void>) => void parts.push({ name, stop: stopPart });
  const checkpoint = async <T>(promise: Promise<T>): Promise<T> => {
    const value = await promise;
    assertRunning();
    return value;
  };
  return {
    supervision: { ownProcessGroups: true, track },
    manifest,
    reaperPid: reaper.pid,
    async starting(name, start) {
      assertRunning();
      const started = start();
      add(name, () => started.then((part) => part.stop(), () => undefined));
      return checkpoint(started);
    },
    add,
    checkpoint,
    assertRunning,
    isStopping: () => stopping !== null,
    stop,
  };
}
