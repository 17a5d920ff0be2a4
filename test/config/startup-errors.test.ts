/**
 * A server started with a bad setting says what is wrong in one line and exits non-zero before it
 * writes anything: the PGlite data directory is not even created.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

function runServer(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, PORT: '0', ...env };
  delete childEnv.NODE_OPTIONS;
  if (!env.DATABASE_URL) delete childEnv.DATABASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

function freshDataDir(): string {
  return join(mkdtempSync(join(tmpdir(), 'quire-cfg-')), 'data');
}

describe('start-up errors', () => {
  it.each([
    [{ PORT: 'abc' }, /^Quire could not start: .*PORT must be a number from 0 to 65535 \(PORT="abc"\)$/],
    [{ DATABASE_URL: 'mysql://x@y/z' }, /^Quire could not start: .*DATABASE_URL must be a postgres:\/\/ URL/],
    [{ DATABASE_URL: 'postgres://root@no-such-host.invalid:5432/test' }, /^Quire could not start: database host "no-such-host.invalid" not found/],
    [{ DATABASE_URL: 'postgres://root@127.0.0.1:5432/quire_no_such_database' }, /^Quire could not start: database "quire_no_such_database" does not exist$/],
    [{ REQUEST_TIMEOUT_MS: '-5' }, /^Quire could not start: .*REQUEST_TIMEOUT_MS must be above 0/],
  ])('%o: one line on stderr, exit 1, nothing written', async (env, line) => {
    const dataDir = freshDataDir();
    const result = await runServer({ ...env, QUIRE_DATA_DIR: dataDir });
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr.trim()).toMatch(line);
    expect(result.stdout).not.toContain('listening');
    expect(existsSync(dataDir)).toBe(false);
  }, 60_000);

  it('a busy port fails before the data directory is opened or seeded', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '0.0.0.0', resolve));
    const port = (blocker.address() as { port: number }).port;
    const dataDir = freshDataDir();
    try {
      const result = await runServer({ PORT: String(port), QUIRE_DATA_DIR: dataDir });
      expect(result.code).toBe(1);
      expect(result.stderr.trim()).toBe(`Quire could not start: port ${port} is already in use; stop what listens there or set PORT`);
      expect(result.stdout).not.toContain('token');
      expect(existsSync(dataDir)).toBe(false);
    } finally {
      blocker.close();
    }
  }, 60_000);
});
