import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { promisify } from 'node:util';

/*
 * The official CLI (`@gitbook/cli`, node_modules/.bin/gitbook), run as a developer runs it, with
 * HOME, XDG_CONFIG_HOME and TMPDIR in a temp folder so its config file and build output stay
 * there.
 */
const run = promisify(execFile);
const BIN = resolve(import.meta.dirname, '../../../node_modules/.bin/gitbook');
export const FIXTURES = resolve(import.meta.dirname, '../../fixtures/integrations');

export interface Cli {
  run(args: string[], options?: { cwd?: string; env?: Record<string, string> }): Promise<{ stdout: string; stderr: string }>;
  /** Starts a command that keeps running (`gitbook tail`); the caller kills it. */
  start(args: string[], options?: { cwd?: string }): ChildProcess;
  dispose(): Promise<void>;
}

export async function gitbookCli(): Promise<Cli> {
  const home = await mkdtemp(resolve(tmpdir(), 'quire-gitbook-cli-'));
  const env = { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: resolve(home, '.config'), TMPDIR: home, NO_COLOR: '1' };
  return {
    run: (args, options = {}) => run(BIN, args, { cwd: options.cwd ?? home, env: { ...env, ...options.env }, timeout: 60_000 }),
    start: (args, options = {}) => spawn(BIN, args, { cwd: options.cwd ?? home, env, stdio: ['ignore', 'pipe', 'pipe'] }),
    dispose: () => rm(home, { recursive: true, force: true }),
  };
}
