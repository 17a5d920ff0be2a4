/**
 * Quire as a person runs it for the catalogue: the real server in a child process on a free port,
 * embedded PGlite in a temp folder, the demo data and its admin token; the REST and GraphQL doors
 * with that token; the official CLI with its config in a temp HOME.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../test/faults/pg-cluster';
import { startServerProcess, type StartedServer } from '../../test/faults/server-process';

const runFile = promisify(execFile);
const CLI = resolve(import.meta.dirname, '../../node_modules/.bin/gitbook');

export interface Answer {
  status: number;
  // JSON answers of the API, read field by field by the runner.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  headers: Headers;
}

export interface Quire {
  url: string;
  token: string;
  organizationId: string;
  rest(method: string, path: string, body?: unknown): Promise<Answer>;
  graphql(query: string, variables: Record<string, unknown>): Promise<Answer>;
  /** The official CLI in `cwd`, authenticated against this server. */
  cli(args: string[], cwd: string, env?: Record<string, string>): Promise<{ ok: boolean; output: string }>;
  stop(): Promise<void>;
}

async function call(url: string, token: string, method: string, body?: unknown): Promise<Answer> {
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON (a page, a script): kept as text.
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

export async function startQuire(): Promise<Quire> {
  const home = mkdtempSync(resolve(tmpdir(), 'quire-catalogue-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let server: StartedServer;
  try {
    server = await startServerProcess({ PORT: String(port), QUIRE_DATA_DIR: resolve(home, 'data'), QUIRE_PUBLIC_URL: url }, 120_000);
  } catch (error) {
    rmSync(home, { recursive: true, force: true });
    throw error;
  }
  // The token is printed just after the line that says the server listens.
  let token: string | undefined;
  for (let tries = 0; !token && tries < 100; tries++) {
    token = /Admin API token[^\n]*\n\s*(\S+)/.exec(server.output())?.[1];
    if (!token) await new Promise((r) => setTimeout(r, 100));
  }
  if (!token) throw new Error(`no demo token in the server's output:\n${server.output()}`);
  const orgs = await call(`${url}/v1/orgs`, token, 'GET');
  const organizationId = orgs.body.items[0].id as string;
  const cliEnv = { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: resolve(home, '.config'), TMPDIR: home, NO_COLOR: '1' };
  const cli = async (args: string[], cwd: string, env: Record<string, string> = {}) => {
    try {
      const { stdout, stderr } = await runFile(CLI, args, { cwd, env: { ...cliEnv, ...env }, timeout: 180_000, maxBuffer: 16 * 1024 * 1024 });
      return { ok: true, output: `${stdout}${stderr}` };
    } catch (error) {
      const e = error as { stdout?: string; stderr?: string; message: string };
      return { ok: false, output: `${e.stdout ?? ''}${e.stderr ?? ''}` || e.message };
    }
  };
  const auth = await cli(['auth', '--endpoint', url, '--token', token], home);
  if (!auth.ok) throw new Error(`gitbook auth failed: ${auth.output}`);
  return {
    url,
    token,
    organizationId,
    rest: (method, path, body) => call(`${url}${path}`, token, method, body),
    graphql: (query, variables) => call(`${url}/graphql`, token, 'POST', { query, variables }),
    cli,
    stop: async () => {
      await server.stop();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
