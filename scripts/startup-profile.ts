/**
 * Start-up time and memory of the server on embedded PGlite, measured from outside.
 *
 *   npx tsx scripts/startup-profile.ts [--runs 3] [--template warm|cold|off] [--compare /other/checkout] [checkout]
 *
 * Each run starts `node --import tsx src/main.ts` (node itself, so its pid is the server's) on a new
 * data folder (a first start), stops it, and starts it again on the same folder (a restart). It
 * reports the time until GET /ready answers 200, the peak resident memory of the server process
 * (VmHWM in /proc/<pid>/status, read once ready) and the server's own "startup phase" log lines.
 * With --compare the two checkouts run in turn (A, B, A, B ...): the machine is shared, and a
 * figure is only worth its neighbour measured under the same load. Medians are printed last.
 *
 * --template: warm (default) gives every first start one template folder, filled by a warm-up start
 * that is not counted; cold gives each first start an empty one (the first start on a new machine);
 * off sets QUIRE_PGLITE_TEMPLATE_DIR=off.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

interface Run {
  checkout: string;
  kind: 'first start' | 'restart';
  ms: number;
  peakMb: number;
  phases: Record<string, number>;
}

const START_DEADLINE_MS = 900_000;

function options() {
  const args = process.argv.slice(2);
  const take = (name: string) => {
    const at = args.indexOf(name);
    return at < 0 ? undefined : args.splice(at, 2)[1];
  };
  const runs = Number(take('--runs') ?? 3);
  const template = take('--template') ?? 'warm';
  const compare = take('--compare');
  if (!Number.isInteger(runs) || runs < 1 || runs > 50) throw new Error('--runs takes a number from 1 to 50');
  if (!['warm', 'cold', 'off'].includes(template)) throw new Error('--template takes warm, cold or off');
  const checkouts = [resolve(args[0] ?? '.'), ...(compare ? [resolve(compare)] : [])];
  return { runs, template, checkouts };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

function peakKb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmHWM:\s+(\d+) kB/m);
  return line ? Number(line[1]) : NaN;
}

async function ready(port: number, exited: () => boolean): Promise<boolean> {
  const deadline = Date.now() + START_DEADLINE_MS;
  while (Date.now() < deadline && !exited()) {
    const status = await fetch(`http://127.0.0.1:${port}/ready`).then((r) => r.status, () => 0);
    if (status === 200) return true;
    await sleep(50);
  }
  return false;
}

/** One start of the server in `checkout` on `dataDir`, stopped once it is ready. */
async function startOnce(checkout: string, dataDir: string, templateDir: string, kind: Run['kind']): Promise<Run> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: checkout,
    env: { ...process.env, PORT: String(port), QUIRE_DATA_DIR: dataDir, QUIRE_PGLITE_TEMPLATE_DIR: templateDir, DATABASE_URL: '', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk));
  let exited = false;
  const exit = new Promise<void>((done) => child.on('exit', () => ((exited = true), done())));
  const ok = await ready(port, () => exited);
  const ms = performance.now() - started;
  const peakMb = ok ? peakKb(child.pid!) / 1024 : NaN;
  child.kill('SIGTERM');
  await exit;
  if (!ok) throw new Error(`the server in ${checkout} did not become ready:\n${output.slice(-2000)}`);
  const phases: Record<string, number> = {};
  for (const line of output.split('\n')) {
    if (!line.includes('"phase"')) continue;
    try {
      const entry = JSON.parse(line) as { phase?: string; ms?: number };
      if (entry.phase && typeof entry.ms === 'number') phases[entry.phase] = entry.ms;
    } catch {
      // A line that is not JSON (the demo banner) carries no phase.
    }
  }
  return { checkout, kind, ms, peakMb, phases };
}

function median(values: number[]): number {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  if (!sorted.length) return NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

async function main() {
  const { runs, template, checkouts } = options();
  const scratch = mkdtempSync(join(tmpdir(), 'quire-startup-'));
  const results: Run[] = [];
  try {
    const sharedTemplates = new Map(checkouts.map((c, i) => [c, template === 'off' ? 'off' : join(scratch, `template-${i}`)]));
    if (template === 'warm') {
      for (const checkout of checkouts) await startOnce(checkout, mkdtempSync(join(scratch, 'warmup-')), sharedTemplates.get(checkout)!, 'first start');
    }
    for (let i = 0; i < runs; i++) {
      for (const checkout of checkouts) {
        const dataDir = mkdtempSync(join(scratch, 'data-'));
        const templateDir = template === 'cold' ? mkdtempSync(join(scratch, 'template-')) : sharedTemplates.get(checkout)!;
        for (const kind of ['first start', 'restart'] as const) {
          const run = await startOnce(checkout, dataDir, templateDir, kind);
          results.push(run);
          const phases = Object.entries(run.phases).map(([phase, ms]) => `${phase} ${ms}`).join(', ');
          console.log(`${checkout} ${kind}: ${Math.round(run.ms)} ms, peak ${Math.round(run.peakMb)} MB (${phases})`);
        }
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  console.log(`\nMedians of ${runs} run(s), template ${template}:`);
  for (const checkout of checkouts) {
    for (const kind of ['first start', 'restart'] as const) {
      const mine = results.filter((r) => r.checkout === checkout && r.kind === kind);
      const names = [...new Set(mine.flatMap((r) => Object.keys(r.phases)))];
      const phases = names.map((name) => `${name} ${Math.round(median(mine.map((r) => r.phases[name] ?? NaN)))}`).join(', ');
      console.log(`${checkout} ${kind}: ${Math.round(median(mine.map((r) => r.ms)))} ms, peak ${Math.round(median(mine.map((r) => r.peakMb)))} MB; phases (ms): ${phases}`);
    }
  }
}

await main();
