import { setTimeout as sleep } from 'node:timers/promises';
import { openDatabase, type Database, type DatabaseOptions } from './client';
import { describeUnavailable, isDatabaseUnavailable } from '../lib/unavailable';

export interface WaitOptions {
  /** One line per failed attempt. */
  log?: (line: string) => void;
  /** First wait between attempts, doubled after each, up to `maxDelayMs`. */
  firstDelayMs?: number;
  maxDelayMs?: number;
  /** Gives up after this many attempts (default: never). */
  maxAttempts?: number;
  sleep?: (ms: number) => Promise<unknown>;
}

/**
 * Opens (and migrates) the database, waiting for it if it is not reachable yet: a server started
 * before its database, or during a restart of it, retries with back-off and logs one line per
 * attempt, then carries on once the database answers. Any other failure (bad credentials, a
 * missing database, a failing migration) is thrown at once. PGlite is opened directly.
 */
export async function openDatabaseWhenReachable(options: DatabaseOptions, wait: WaitOptions = {}): Promise<Database> {
  const { log = console.error, firstDelayMs = 100, maxDelayMs = 2_000, maxAttempts = Infinity, sleep: pause = sleep } = wait;
  for (let attempt = 1; ; attempt++) {
    try {
      return await openDatabase(options);
    } catch (error) {
      if (!options.url || !isDatabaseUnavailable(error) || attempt >= maxAttempts) throw error;
      const delay = Math.min(firstDelayMs * 2 ** (attempt - 1), maxDelayMs);
      log(`Database not reachable (attempt ${attempt}: ${describeUnavailable(error)}); retrying in ${delay} ms`);
      await pause(delay);
    }
  }
}
