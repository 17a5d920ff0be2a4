import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MIGRATIONS_FOLDER, type Database } from '../db/client';
import type { JobQueue } from '../jobs/queue';
import type { ReadRouting } from '../db/replica';

/** How long `/ready` waits for the database before calling it unreachable. */
const CHECK_TIMEOUT_MS = 2_000;

export interface ReadinessReport {
  ready: boolean;
  /** `replica` is there only when one is configured; it informs and never makes the instance unready (reads fall back to the primary). */
  checks: { draining: boolean; database: string; migrations: string; jobQueue: string; replica?: string };
}

export interface Readiness {
  /** Set when shutdown begins: from then on `/ready` answers 503 so load balancers stop sending. */
  draining: boolean;
  check(): Promise<ReadinessReport>;
}

export interface ReadinessSources {
  database: Pick<Database, 'executeSql'>;
  /** Absent when this process runs no queue. */
  jobs?: Pick<JobQueue, 'started'>;
  /** Absent when no replica is configured. */
  replica?: Pick<ReadRouting, 'status' | 'replicaFor'>;
}

function expectedMigrations(): number {
  const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] };
  return journal.entries.length;
}

/** Database reachable, every migration of this build applied, job queue running, not draining. */
export function createReadiness(sources: ReadinessSources): Readiness {
  const expected = expectedMigrations();
  const readiness: Readiness = {
    draining: false,
    async check() {
      let database = 'ok';
      let migrations = 'unknown';
      let timer: NodeJS.Timeout | undefined;
      try {
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
        });
        const { rows } = await Promise.race([sources.database.executeSql('select count(*)::int as applied from drizzle.__drizzle_migrations', []), timeout]);
        const applied = Number((rows[0] as { applied: number }).applied);
        migrations = applied >= expected ? 'ok' : `${applied} of ${expected} applied`;
      } catch (error) {
        database = `unreachable: ${error instanceof Error ? error.message : String(error)}`;
      } finally {
        clearTimeout(timer);
      }
      const jobQueue = !sources.jobs ? 'not run here' : sources.jobs.started ? 'ok' : 'stopped';
      // An anonymous look refreshes the replica's state (at most one look per 100 ms) without a statement on the primary.
      if (sources.replica) await sources.replica.replicaFor(null);
      const checks = { draining: readiness.draining, database, migrations, jobQueue, ...(sources.replica ? { replica: sources.replica.status() } : {}) };
      const ready = !readiness.draining && database === 'ok' && migrations === 'ok' && jobQueue !== 'stopped';
      return { ready, checks };
    },
  };
  return readiness;
}
