/**
 * The real server in a child process, stopped by a signal while under load: every request it
 * accepted is answered, `/ready` says 503 while it drains, and it exits on its own, also under
 * `npm start`, where the signal goes to npm.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnServerProcess, type ServerProcess } from '../faults/server-process';

const dirs: string[] = [];
function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'quire-shutdown-'));
  dirs.push(dir);
  return dir;
}

/** Embedded PGlite in a fresh directory, so the first start prints the demo token. */
function serverEnv(): Record<string, string> {
  return { DATABASE_URL: '', QUIRE_DATA_DIR: dataDir(), PORT: '0', LOG_LEVEL: 'debug', SHUTDOWN_TIMEOUT_MS: '20000' };
}

interface Outcome {
  id: string;
  path: string;
  status?: number;
  error?: string;
}

/** One request on its own connection, tagged with our request id. */
function send(base: string, id: string, path: string, token: string, body?: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const url = new URL(path, base);
    const headers: Record<string, string> = { 'x-request-id': id, authorization: `Bearer ${token}` };
    if (body) headers['content-type'] = 'application/json';
    const req = httpRequest(url, { method: body ? 'POST' : 'GET', agent: false, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ id, path, status: res.statusCode }));
      res.on('error', (e) => resolve({ id, path, error: e.message }));
    });
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ id, path, error: e.code ?? e.message }));
    req.end(body);
  });
}

/** The demo token of a first start, once the server has printed it (after its listening line). */
function token(server: ServerProcess): Promise<string> {
  const pattern = /Admin API token \(shown once, keep it\):\s+(quire_\S+)/;
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = pattern.exec(server.output());
      if (!match) return;
      server.child.stdout!.off('data', check);
      resolve(match[1]);
    };
    server.child.stdout!.on('data', check);
    server.child.once('exit', () => reject(new Error(`no demo token in:\n${server.output()}`)));
    check();
  });
}

function logLines(output: string): Record<string, unknown>[] {
  return output
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

let server: ServerProcess | undefined;

afterAll(async () => {
  await server?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('SIGTERM under load', { timeout: 120_000 }, () => {
  it('answers every request it accepted, says 503 on /ready while draining, and exits 0', async () => {
    server = spawnServerProcess(serverEnv());
    const base = await server.listening;
    const bearer = await token(server);
    const query = JSON.stringify({ query: 'query Load { viewer { organizations { edges { node { title members { totalCount } spaces { edges { node { title } } } } } } } }' });

    const outcomes: Outcome[] = [];
    let sent = 0;
    let signalled = false;
    // Workers send until the server refuses connections; the signal goes after 60 answers.
    const worker = async (w: number) => {
      for (;;) {
        const n = sent++;
        const path = n % 3 === 0 ? '/ready' : '/graphql';
        const outcome = await send(base, `load-${w}-${n}`, path, bearer, path === '/graphql' ? query : undefined);
        outcomes.push(outcome);
        if (!signalled && outcomes.length >= 60) {
          signalled = true;
          server!.child.kill('SIGTERM');
        }
        if (outcome.error) return;
      }
    };
    await Promise.all(Array.from({ length: 16 }, (_, w) => worker(w)));
    await once(server.child, 'exit');
    expect(server.exit()).toEqual({ code: 0, signal: null });

    const lines = logLines(server.output());
    const received = new Set(lines.filter((l) => l.msg === 'request received').map((l) => l.reqId as string));
    const accepted = outcomes.filter((o) => received.has(o.id));
    // Every request the server received got its answer: none dropped, none failed.
    expect(accepted.filter((o) => o.error || (o.path === '/graphql' && o.status !== 200)), JSON.stringify(outcomes)).toEqual([]);
    // Those refused were never received: the listener was closed.
    expect(outcomes.filter((o) => o.error).every((o) => !received.has(o.id))).toBe(true);

    const drainAt = lines.findIndex((l) => l.msg === 'shutting down: draining requests');
    expect(drainAt).toBeGreaterThan(0);
    const answeredWhileDraining = lines.slice(drainAt).filter((l) => l.msg === 'request');
    expect(answeredWhileDraining.length).toBeGreaterThan(0);
    // Readiness checks answered during the drain said 503, those before it 200.
    for (const l of answeredWhileDraining.filter((l) => l.route === '/ready')) expect(l.status).toBe(503);
    for (const l of lines.slice(0, drainAt).filter((l) => l.msg === 'request' && l.route === '/ready')) expect(l.status).toBe(200);
    // Each step stops, in order, and is logged once.
    const steps = lines.filter((l) => typeof l.msg === 'string' && (l.msg.endsWith(' stopped') || l.msg === 'shutdown complete')).map((l) => l.msg);
    for (const step of ['http server stopped', 'job queue stopped', 'database pool stopped', 'shutdown complete']) expect(steps.filter((m) => m === step), step).toHaveLength(1);
    expect(steps.indexOf('http server stopped')).toBeLessThan(steps.indexOf('job queue stopped'));
    expect(steps.indexOf('job queue stopped')).toBeLessThan(steps.indexOf('database pool stopped'));
  });
});

describe('npm start', { timeout: 120_000 }, () => {
  it('stops the server when npm is sent SIGTERM, leaving nothing listening', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, ...serverEnv(), LOG_LEVEL: 'info' };
    delete env.NODE_OPTIONS;
    const npm = spawn('npm', ['start'], { cwd: process.cwd(), env, stdio: ['ignore', 'pipe', 'pipe'] });
    const killOnExit = () => npm.kill('SIGKILL');
    process.once('exit', killOnExit);
    let output = '';
    npm.stdout.setEncoding('utf8').on('data', (s: string) => (output += s));
    npm.stderr.setEncoding('utf8').on('data', (s: string) => (output += s));
    // The pipe ends when every process writing to it has exited: npm and the server it started.
    const stdoutClosed = once(npm.stdout, 'end');
    const port = await new Promise<string>((resolve, reject) => {
      const check = () => {
        const m = /Quire listening on http:\/\/localhost:(\d+)/.exec(output);
        if (m) resolve(m[1]);
      };
      npm.stdout.on('data', check);
      npm.once('exit', () => reject(new Error(`npm start exited before listening:\n${output}`)));
    });
    npm.kill('SIGTERM');
    await stdoutClosed;
    process.removeListener('exit', killOnExit);
    expect(output).toContain('"msg":"shutdown complete"');
    const after = await send(`http://127.0.0.1:${port}`, 'after-stop', '/health', 'none');
    expect(after.error).toBe('ECONNREFUSED');
  });
});
