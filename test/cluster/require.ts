import { findPostgresBin } from '../faults/pg-cluster';
import { missingProxies } from './proxies';

/**
 * The PostgreSQL binaries, or null when this machine lacks them or PgBouncer/HAProxy: the cluster
 * tests are then skipped with the reason, unless QUIRE_REQUIRE_FAULT_TESTS=1 (CI) makes it a failure.
 */
export function clusterBinaries(file: string): string | null {
  const bin = findPostgresBin();
  const missing = bin ? missingProxies() : 'PostgreSQL server binaries (initdb, pg_ctl, postgres) not found; set QUIRE_PG_BIN to their directory';
  if (!missing) return bin;
  if (process.env.QUIRE_REQUIRE_FAULT_TESTS === '1') throw new Error(missing);
  console.warn(`Skipping ${file}: ${missing}.`);
  return null;
}

/** Asks `check` until it answers true; throws with `what` after `timeoutMs`. */
export async function waitFor(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
