import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'drizzle-orm/logger';
import { drizzle as drizzlePostgres, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import * as schema from './schema';

/**
 * Both drivers expose the same query builder; the type names the postgres.js flavour because the
 * result shapes we touch (select/insert/update/delete returning rows) are identical on PGlite.
 */
export type Db = PostgresJsDatabase<typeof schema>;

export interface Database {
  db: Db;
  kind: 'postgres' | 'pglite';
  close(): Promise<void>;
}

/** Counts SQL statements per database; tests read it to prove a query is batched (no N+1). */
export class StatementCounter implements Logger {
  count = 0;
  logQuery(): void {
    this.count += 1;
  }
}

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../drizzle', import.meta.url));

export interface DatabaseOptions {
  /** postgres:// URL; absent means embedded PGlite. */
  url?: string;
  /** PGlite data directory; absent means in memory. */
  dataDir?: string;
  counter?: StatementCounter;
  /** Apply pending migrations before returning. */
  migrate?: boolean;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const logger = options.counter ?? false;
  if (options.url) {
    const { default: postgres } = await import('postgres');
    const client = postgres(options.url, {
      max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
      onnotice: () => {},
      // The default back-off climbs to 20 s; a restarted database should be picked up quickly.
      backoff: (attempt: number) => Math.min(0.05 * 2 ** attempt, 1),
      connection: { statement_timeout: Number(process.env.STATEMENT_TIMEOUT_MS ?? 15_000) },
    } as Parameters<typeof postgres>[1]);
    const db = drizzlePostgres(client, { schema, casing: 'snake_case', logger });
    if (options.migrate) {
      const { migrate } = await import('drizzle-orm/postgres-js/migrator');
      // Several instances may start at once against one database: one migrates, the others wait
      // on the advisory lock, which lives on this single connection.
      const single = postgres(options.url, { max: 1, onnotice: () => {} });
      try {
        await single`select pg_advisory_lock(7212021)`;
        await migrate(drizzlePostgres(single, { casing: 'snake_case' }), { migrationsFolder: MIGRATIONS_FOLDER });
      } finally {
        await single.end({ timeout: 5 });
      }
    }
    return { db, kind: 'postgres', close: () => client.end({ timeout: 5 }) };
  }

  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle: drizzlePglite } = await import('drizzle-orm/pglite');
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const client = new PGlite(options.dataDir);
  await client.waitReady;
  const db = drizzlePglite(client, { schema, casing: 'snake_case', logger }) as unknown as Db;
  if (options.migrate) {
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    await migrate(drizzlePglite(client, { casing: 'snake_case' }), { migrationsFolder: MIGRATIONS_FOLDER });
  }
  return { db, kind: 'pglite', close: () => client.close() };
}
