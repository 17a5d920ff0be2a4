/**
 * Embedded PGlite allows one process per data directory. A second server, or the command line,
 * started on a directory a running server holds must refuse with a line saying what to do, and
 * every write the first server acknowledged must survive its restart. A lock left by a killed
 * server must not block the next start.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServerProcess, startServerProcess, type StartedServer } from './server-process';

const exec = promisify(execFile);
let root: string;
let dataDir: string;
const env = () => ({ DATABASE_URL: '', QUIRE_DATA_DIR: dataDir, PORT: '0' });

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'quire-lock-'));
  dataDir = join(root, 'data');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function createSpaces(server: StartedServer, token: string, org: string, prefix: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${server.url}/v1/orgs/${org}/spaces`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: `${prefix} ${i}` }),
    });
    expect(res.status).toBe(201);
    ids.push(((await res.json()) as { id: string }).id);
  }
  return ids;
}

async function spaceIds(server: StartedServer, token: string, org: string): Promise<Set<string>> {
  const ids = new Set<string>();
  let page: string | undefined;
  do {
    const res = await fetch(`${server.url}/v1/orgs/${org}/spaces?limit=100${page ? `&page=${page}` : ''}`, { headers: { authorization: `Bearer ${token}` } });
    const body = (await res.json()) as { items: { id: string }[]; next?: { page: string } };
    for (const item of body.items) ids.add(item.id);
    page = body.next?.page;
  } while (page);
  return ids;
}

async function cli(...args: string[]): Promise<{ code: number; stderr: string }> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env() };
  delete childEnv.NODE_OPTIONS;
  try {
    await exec(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { env: childEnv });
    return { code: 0, stderr: '' };
  } catch (error) {
    const e = error as { code: number; stderr: string };
    return { code: e.code, stderr: e.stderr };
  }
}

describe('two processes on one PGlite directory', { timeout: 180_000 }, () => {
  it('the second is refused, and nothing the first acknowledged is lost', async () => {
    const first = await startServerProcess(env());
    let acknowledged: string[];
    let token: string;
    let org: string;
    try {
      while (!first.output().includes('More tokens')) await new Promise((resolve) => first.child.stdout!.once('data', resolve));
      token = /Admin API token[^\n]*\n\s*\n\s*(\S+)/.exec(first.output())![1];
      org = /"Demo Organization" \((\S+)\)/.exec(first.output())![1];
      acknowledged = await createSpaces(first, token, org, 'Before', 10);

      const second = spawnServerProcess(env());
      await expect(second.listening).rejects.toThrow(/exited before listening/);
      expect(second.exit()).toEqual({ code: 1, signal: null });
      expect(second.output()).toMatch(/^Quire could not start: the data directory .* is in use by another Quire process \(pid \d+/m);
      expect(second.output()).toContain('stop that process first');

      const command = await cli('token', 'create', '--email', 'admin@demo.quire.test');
      expect(command.code).toBe(1);
      expect(command.stderr).toMatch(/^quire: the data directory .* is in use by another Quire process/);

      // The refused processes wrote nothing: the first keeps serving, and keeps its writes.
      acknowledged.push(...(await createSpaces(first, token, org, 'After', 10)));
    } finally {
      await first.stop();
    }
    expect(existsSync(join(dataDir, 'quire.lock'))).toBe(false);

    const again = await startServerProcess(env());
    try {
      const ids = await spaceIds(again, token, org);
      expect(acknowledged.filter((id) => !ids.has(id))).toEqual([]);
      // A server killed outright leaves its lock behind.
      again.child.kill('SIGKILL');
      await new Promise((resolve) => again.child.once('exit', resolve));
    } finally {
      await again.stop();
    }
    expect(existsSync(join(dataDir, 'quire.lock'))).toBe(true);

    // Its process is gone, so the lock is stale: the command line and the next server take it over.
    expect((await cli('migrate')).code).toBe(0);
    const recovered = await startServerProcess(env());
    try {
      const ids = await spaceIds(recovered, token, org);
      expect(acknowledged.filter((id) => !ids.has(id))).toEqual([]);
    } finally {
      await recovered.stop();
    }
  });
});
