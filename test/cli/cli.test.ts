import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app/app';
import { openDatabase, type Database } from '../../src/db/client';

const run = promisify(execFile);

/**
 * The command line as a person runs it, in its own process, against an embedded database in a
 * temporary directory; then the printed tokens are used against the API on that same data.
 */
let dataDir: string;

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'quire-cli-'));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function quire(...args: string[]): Promise<{ json: any; code: number }> {
  const env = { ...process.env, QUIRE_DATA_DIR: dataDir, DATABASE_URL: '' };
  try {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { env, cwd: process.cwd() });
    return { json: JSON.parse(stdout.trim().split('\n').at(-1)!), code: 0 };
  } catch (error) {
    const e = error as { stdout: string; code: number };
    return { json: JSON.parse(e.stdout.trim().split('\n').at(-1)!), code: e.code };
  }
}

async function withApi<T>(fn: (call: (path: string, token: string) => Promise<Response>) => Promise<T>): Promise<T> {
  const database: Database = await openDatabase({ dataDir });
  try {
    const app = createApp({ db: database.db, config: { port: 0, publicUrl: 'http://quire.test', appUrl: 'http://quire.test', dataDir } });
    return await fn((path, token) => app.fetch(new Request(`http://quire.test${path}`, { headers: { authorization: `Bearer ${token}` } })));
  } finally {
    await database.close();
  }
}

describe('npm run quire', () => {
  it('bootstraps an organization, adds a member and mints tokens that work', async () => {
    const boot = await quire('bootstrap', '--org', 'CLI Org', '--email', 'Owner@Cli.test', '--name', 'Owner');
    expect(boot.code).toBe(0);
    expect(Object.keys(boot.json).sort()).toEqual(['organization', 'token', 'user']);

    const member = await quire('member', 'add', '--org', boot.json.organization, '--email', 'reader@cli.test', '--role', 'read');
    expect(member.code).toBe(0);
    const extra = await quire('token', 'create', '--user', member.json.user);
    expect(extra.json.token).toMatch(/^quire_/);

    await withApi(async (call) => {
      const org = await (await call(`/v1/orgs/${boot.json.organization}`, boot.json.token)).json();
      expect(org).toMatchObject({ title: 'CLI Org', permissions: { admin: true } });
      const me = await (await call(`/v1/orgs/${boot.json.organization}/members/${member.json.user}`, extra.json.token)).json();
      expect(me).toMatchObject({ role: 'read', user: { email: 'reader@cli.test' } });
    });
  }, 120_000);

  it('refuses a bad role or a missing flag with a non-zero exit and an error line', async () => {
    const badRole = await quire('member', 'add', '--org', 'x', '--email', 'a@b.test', '--role', 'owner');
    expect(badRole.code).not.toBe(0);
    expect(badRole.json.error).toBe('--role must be one of admin, create, review, edit, comment, read, guest (got "owner")');
    const missing = await quire('bootstrap', '--org', 'No email');
    expect(missing.code).not.toBe(0);
    expect(missing.json.error).toBe('--email is required for "bootstrap"');
    const unknownFlag = await quire('token', 'create', '--emial', 'a@b.c');
    expect(unknownFlag).toEqual({ code: 1, json: { error: 'unknown flag --emial for "token create"; it takes --email, --user' } });
    const noValue = await quire('token', 'create', '--email');
    expect(noValue.code).toBe(1);
    expect(noValue.json.error).toMatch(/--email/);
    const neither = await quire('token', 'create');
    expect(neither.json.error).toBe('"token create" needs --email or --user');
  }, 120_000);

  it('finds a user by e-mail to mint a token, and names an unknown address', async () => {
    const boot = await quire('bootstrap', '--org', 'By Mail', '--email', 'a@b.c');
    expect(boot.code).toBe(0);
    const made = await quire('token', 'create', '--email', 'A@B.C');
    expect(made.code).toBe(0);
    const response = await withApi((call) => call('/v1/user', made.json.token));
    expect(response.status).toBe(200);
    const missing = await quire('token', 'create', '--email', 'nobody@b.c');
    expect(missing).toEqual({ code: 1, json: { error: 'user with e-mail nobody@b.c not found' } });
  });

  it('prints usage once for --help with exit 0, and names an unknown command', async () => {
    const env = { ...process.env, QUIRE_DATA_DIR: dataDir, DATABASE_URL: '' };
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'token', 'create', '--help'], { env });
    expect(stdout.match(/usage:/g)).toHaveLength(1);
    expect(stdout).toContain('token create --email <email>');
    for (const command of [['bootstrap'], ['member', 'add'], ['migrate'], []]) {
      const help = await run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...command, '--help'], { env });
      expect(help.stdout).toMatch(/^usage: npm run --silent quire -- /);
    }
    const unknown = await quire('frobnicate');
    expect(unknown.code).toBe(1);
    expect(unknown.json.error).toMatch(/^unknown command "frobnicate"/);
  });

  it('refuses a data directory a running process holds, saying what to do, and writes nothing', async () => {
    const boot = await quire('bootstrap', '--org', 'Held', '--email', 'held@cli.test');
    const refused = await withApi(() => quire('token', 'create', '--user', boot.json.user));
    expect(refused.code).toBe(1);
    expect(refused.json.error).toMatch(/^quire: the data directory .* is in use by another Quire process \(pid \d+.*stop that process first/);
    // Free again once the holder closed it.
    expect((await quire('token', 'create', '--user', boot.json.user)).code).toBe(0);
  }, 120_000);
});
