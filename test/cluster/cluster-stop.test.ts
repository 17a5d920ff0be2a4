/**
 * `npm run cluster` leaves nothing behind whatever signals arrive (issue 31). Each case runs the real
 * script under npm in a process group of its own, as a terminal does, and signals it as a terminal
 * (the whole group) or a user (one pid) would. Afterwards no process of that run is alive, the
 * postmasters included: every one carries the run's mark in its environment, and the pids it
 * listed while it ran are checked too; and the directories it listed are gone.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../faults/pg-cluster';
import { clusterBinaries, waitFor } from './require';

const bin = clusterBinaries('test/cluster/cluster-stop.test.ts');

/** Everything a run showed of itself while it ran. */
interface Run {
  mark: string;
  npm: ChildProcess;
  output(): string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  manifest: string | null;
  pids: Set<number>;
  postmasters: Set<number>;
  dirs: Set<string>;
}

const runs: Run[] = [];

/** Starts `npm run cluster` with one instance, as its own process group, and reads its manifest as it grows. */
async function startRun(): Promise<Run> {
  const mark = randomUUID();
  const env: NodeJS.ProcessEnv = { ...process.env, QUIRE_CLUSTER_INSTANCES: '1', QUIRE_CLUSTER_PORT: String(await freePort()), QUIRE_CLUSTER_RUN: mark };
  delete env.NODE_OPTIONS;
  const npm = spawn('npm', ['run', '--silent', 'cluster'], { cwd: process.cwd(), env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  npm.stdout!.setEncoding('utf8').on('data', (s: string) => (output += s));
  npm.stderr!.setEncoding('utf8').on('data', (s: string) => (output += s));
  const run: Run = {
    mark,
    npm,
    output: () => output,
    exit: new Promise((resolve) => npm.once('exit', (code, signal) => resolve({ code, signal }))),
    manifest: null,
    pids: new Set(),
    postmasters: new Set(),
    dirs: new Set(),
  };
  // The manifest only grows until the run removes it: reading it often sees every entry.
  const watch = setInterval(() => collect(run), 25);
  void run.exit.then(() => clearInterval(watch));
  runs.push(run);
  return run;
}

function collect(run: Run): void {
  const said = /pid (\d+); should it die, its reaper \(pid (\d+)\) stops what (\S+) lists/.exec(run.output());
  if (!said) return;
  run.pids.add(Number(said[1]));
  run.pids.add(Number(said[2]));
  run.manifest = said[3];
  run.dirs.add(dirname(said[3]));
  for (const line of readOr(said[3]).split('\n')) {
    const [kind, value] = [line.slice(0, line.indexOf(' ')), line.slice(line.indexOf(' ') + 1)];
    if (kind === 'pid') run.pids.add(Number(value));
    if (kind === 'dir') run.dirs.add(value);
    if (kind === 'postmaster') {
      const pid = Number(readOr(join(value, 'postmaster.pid')).split('\n')[0]);
      if (pid > 0) run.postmasters.add(pid);
    }
  }
}

function readOr(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/**
 * The postmasters' own children (checkpointer, WAL sender...): PostgreSQL writes their titles over
 * their environment, so the mark is not found there. Read once everything to stop is up.
 */
function collectPostgresChildren(run: Run): void {
  collect(run);
  for (const entry of readdirSync('/proc')) {
    const ppid = Number(/^\d+ \(.*\) \S (\d+)/s.exec(readOr(`/proc/${entry}/stat`))?.[1]);
    if (run.postmasters.has(ppid)) run.pids.add(Number(entry));
  }
}

/** Alive and not a zombie. */
function alive(pid: number): boolean {
  const stat = readOr(`/proc/${pid}/stat`);
  return stat !== '' && !/^\d+ \(.*\) Z/s.test(stat);
}

/** Every live process whose environment carries the run's mark, with its command line. */
function processesOf(run: Run): string[] {
  const found: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    if (!readOr(`/proc/${entry}/environ`).split('\0').includes(`QUIRE_CLUSTER_RUN=${run.mark}`)) continue;
    found.push(`${entry} ${readOr(`/proc/${entry}/cmdline`).replaceAll('\0', ' ').trim()}`);
  }
  return found;
}

async function waitForLine(run: Run, pattern: RegExp): Promise<void> {
  let exited = false;
  void run.exit.then(() => (exited = true));
  await waitFor(`${pattern} in the output`, () => {
    if (pattern.test(run.output())) return true;
    if (exited) throw new Error(`npm run cluster exited before ${pattern}:\n${run.output()}`);
    return false;
  }, 150_000);
}

const URL_LINE = /^http:\/\/127\.0\.0\.1:\d+$/m;

/** Once the run has ended: nothing of it runs, nothing of it stays on disk. */
async function expectNothingLeft(run: Run, started: { postmasters: number; children: number }): Promise<void> {
  collect(run);
  // The reaper, when it is the one cleaning up, looks once a second and gives postmasters 10 s.
  await waitFor('every process of the run to end', () => processesOf(run).length === 0 && ![...run.pids, ...run.postmasters].some(alive), 30_000).catch(() => {});
  expect(processesOf(run)).toEqual([]);
  expect([...run.pids, ...run.postmasters].filter(alive)).toEqual([]);
  await waitFor('every directory of the run to go', () => ![...run.dirs].some((dir) => existsSync(dir)), 10_000).catch(() => {});
  expect([...run.dirs].filter((dir) => existsSync(dir))).toEqual([]);
  // What was checked: the supervisor, its reaper, the children, the postmasters and theirs, the directories.
  expect(run.postmasters.size).toBeGreaterThanOrEqual(started.postmasters);
  expect(run.pids.size).toBeGreaterThanOrEqual(2 + started.children + started.postmasters);
  expect(run.dirs.size).toBeGreaterThanOrEqual(1 + started.postmasters);
}

afterAll(() => {
  // A failed case leaves its run: killing its supervisor hands the rest to its reaper.
  for (const run of runs) if (run.npm.exitCode === null && run.npm.signalCode === null) process.kill(-run.npm.pid!, 'SIGKILL');
});

describe.skipIf(!bin)('npm run cluster stops everything', { timeout: 240_000 }, () => {
  // Four clusters at once, on ports of their own.
  describe.concurrent('whatever signals arrive', () => {
    it('Ctrl-C once: every part stops in reverse order and the run exits 0', async () => {
      const run = await startRun();
      await waitForLine(run, URL_LINE);
      collectPostgresChildren(run);
      process.kill(-run.npm.pid!, 'SIGINT');
      expect(await run.exit).toEqual({ code: 0, signal: null });
      const stopping = [...run.output().matchAll(/^\[cluster\] stopping (.+)$/gm)].map((m) => m[1]);
      expect(stopping).toEqual(['haproxy', 'quire 1', 'pgbouncer', 'replica', 'primary']);
      expect(run.output()).toMatch(/everything stopped/);
      await expectNothingLeft(run, { postmasters: 2, children: 3 });
    });

    it('Ctrl-C twice 100 ms apart: the second kills everything at once', async () => {
      const run = await startRun();
      await waitForLine(run, URL_LINE);
      collectPostgresChildren(run);
      process.kill(-run.npm.pid!, 'SIGINT');
      await new Promise((resolve) => setTimeout(resolve, 100));
      process.kill(-run.npm.pid!, 'SIGINT');
      await run.exit;
      expect(run.output()).toMatch(/SIGINT again: killing everything at once/);
      await expectNothingLeft(run, { postmasters: 2, children: 3 });
    });

    it('the supervisor killed by SIGKILL: its reaper stops the rest', async () => {
      const run = await startRun();
      await waitForLine(run, URL_LINE);
      collectPostgresChildren(run);
      const supervisor = Number(/\[cluster\] pid (\d+);/.exec(run.output())![1]);
      process.kill(supervisor, 'SIGKILL');
      await run.exit;
      expect(run.output()).not.toMatch(/stopping/);
      await expectNothingLeft(run, { postmasters: 2, children: 3 });
    });

    it('Ctrl-C during start-up: what started and what was starting stop, nothing more starts', async () => {
      const run = await startRun();
      // The replica is being copied and started when this line is printed.
      await waitForLine(run, /^\[cluster\] primary on /m);
      collectPostgresChildren(run);
      process.kill(-run.npm.pid!, 'SIGINT');
      expect(await run.exit).toEqual({ code: 0, signal: null });
      const afterSignal = run.output().slice(run.output().indexOf('SIGINT: stopping'));
      expect(afterSignal).not.toMatch(/ on (postgres|http):\/\//);
      expect(run.output()).not.toMatch(URL_LINE);
      expect(run.output()).toMatch(/stopping replica\n.*stopping primary\n.*everything stopped/);
      await expectNothingLeft(run, { postmasters: 1, children: 0 });
    });
  });
});
