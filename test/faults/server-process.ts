/**
 * The real server (src/main.ts) in a child process, so that a crash is something a test can see:
 * the child's exit, not the test runner's.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Supervision } from './pg-cluster';

export interface ServerProcess {
  /** Resolves with the server's base URL (http://127.0.0.1:<port>) once it listens; rejects if it exits first or takes too long. */
  listening: Promise<string>;
  child: ChildProcess;
  /** Everything the child printed so far, stdout and stderr interleaved. */
  output(): string;
  /** Null while it runs; how it ended otherwise. */
  exit(): { code: number | null; signal: NodeJS.Signals | null } | null;
  /** SIGTERM, then SIGKILL after a grace period. Safe to call twice. */
  stop(): Promise<void>;
}

export interface StartedServer extends ServerProcess {
  url: string;
}

/** Spawns `node --import tsx src/main.ts` with `env` on top of this process's environment. */
export function spawnServerProcess(env: Record<string, string>, startTimeoutMs = 60_000, supervision: Supervision = {}): ServerProcess {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete childEnv.NODE_OPTIONS;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: process.cwd(),
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: supervision.ownProcessGroups,
  });
  supervision.track?.({ child });
  let output = '';
  let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  // Should the test runner exit without stopping it (interrupted), do not leave the server behind.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      process.removeListener('exit', killOnExit);
      resolve();
    }),
  );
  child.stdout!.setEncoding('utf8').on('data', (s: string) => (output += s));
  child.stderr!.setEncoding('utf8').on('data', (s: string) => (output += s));

  const stop = async () => {
    if (exit) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };

  const listening = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start within ${startTimeoutMs} ms:\n${output}`)), startTimeoutMs);
    const check = () => {
      const m = /Quire listening on http:\/\/localhost:(\d+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${m[1]}`);
      }
    };
    child.stdout!.on('data', check);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`server exited before listening (${JSON.stringify(exit)}):\n${output}`));
    });
  });
  // Whoever awaits `listening` sees the failure; nobody awaiting it is not an unhandled rejection.
  listening.catch(() => {});

  return { listening, child, output: () => output, exit: () => exit, stop };
}

/** Spawns the server and waits until it listens; stops it if it does not. */
export async function startServerProcess(env: Record<string, string>, startTimeoutMs = 60_000): Promise<StartedServer> {
  const server = spawnServerProcess(env, startTimeoutMs);
  try {
    return { ...server, url: await server.listening };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
