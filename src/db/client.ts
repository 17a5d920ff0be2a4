import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'drizzle-orm/logger';
import { drizzle as drizzlePostgres, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import type { PGlite } from '@electric-sql/pglite';
import type { Options, Sql } from 'postgres';
import { lockDataDir } from './data-dir-lock';
import { unpackSeedImage } from './pglite-seed-image';
import { copyPgliteTemplate, isNewDataDir, pgliteTemplatePath, savePgliteTemplate } from './pglite-template';
import { CASING } from './dialect';
import { preparedSql } from './prepared-sql';
import { timedSql, type StatementTimer } from './timed-sql';

/**
 * Both drivers expose the same query builder; the type names the postgres.js flavour because the
 * result shapes we touch (select/insert/update/delete returning rows) are identical on PGlite.
 */
export type Db = PostgresJsDatabase;

/** A database handle or an open transaction: both build queries alike. */
export type Tx = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

/** Raw SQL in the shape pg-boss's `db` option expects (node-postgres' `{ rows }`). */
export type ExecuteSql = (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;

export interface Database {
  db: Db;
  kind: 'postgres' | 'pglite';
  /**
   * Runs SQL written elsewhere (pg-boss) on the same connections as `db`, past drizzle and so past
   * its logger: the statement counter keeps counting only the app's own queries. Without values the
   * text may hold several statements, BEGIN ... COMMIT included.
   */
  executeSql: ExecuteSql;
  /**
   * Subscribes to a NOTIFY channel. `onResubscribe` runs when the subscription had to be made
   * again after its connection dropped: whatever was announced meanwhile is lost. Resolves with
   * the way to unsubscribe.
   */
  listen(channel: string, onMessage: (payload: string) => void, onResubscribe: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** Counts SQL statements per database; tests read it to prove a query is batched (no N+1). */
export class StatementCounter implements Logger {
  count = 0;
  logQuery(): void {
    this.count += 1;
  }
}

/** `drizzle/` at the project root: two levels up from this file, one up from the bundle in `dist/`. */
export const MIGRATIONS_FOLDER = ['../drizzle', '../../drizzle']
  .map((relative) => fileURLToPath(new URL(relative, import.meta.url)))
  .find((folder) => existsSync(`${folder}/meta/_journal.json`))!;

export interface DatabaseOptions {
  /** postgres:// URL; absent means embedded PGlite. */
  url?: string;
  /**
   * A direct connection to the same primary when `url` is a transaction pooler (PgBouncer): LISTEN
   * and the migration lock need a session of their own, which a pooler hands out per transaction.
   */
  directUrl?: string;
  /**
   * `url` is a transaction pooler: PgBouncer 1.18 keeps no server-side prepared statement past a
   * transaction, and refuses startup parameters it does not know (statement_timeout, jit).
   */
  pooled?: boolean;
  /** PGlite data directory; absent means in memory. */
  dataDir?: string;
  counter?: StatementCounter;
  /** Apply pending migrations before returning. */
  migrate?: boolean;
  /**
   * PGlite only: start from this dump of a data folder (`dumpDataDir`) instead of an empty one; the
   * tests load one migrated dump per run instead of migrating every file's database.
   */
  loadDataDir?: Blob;
  /** Times every statement of the app's queries (PostgreSQL only: PGlite answers in process). */
  onStatement?: StatementTimer;
  /** Told when each step of opening ends ('database open', 'migrations'), for the start-up timings. */
  onPhase?: (phase: string) => void;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const logger = options.counter ?? false;
  if (options.url) {
    const { default: postgres } = await import('postgres');
    // postgres.js waits 30 s by default for a connection to open: fail sooner when the database is away.
    const connectTimeout = Number(process.env.DATABASE_CONNECT_TIMEOUT_MS ?? 5_000) / 1000;
    const client = postgres(options.url, postgresOptions(options.pooled ?? false, Number(process.env.DATABASE_POOL_SIZE ?? 10)));
    // Used for LISTEN only; postgres.js opens the listening connection when the first channel is asked for.
    const direct = options.directUrl ? postgres(options.directUrl, postgresOptions(false, 1)) : client;
    const closeAll = async (timeout: number) => {
      await Promise.all([client.end({ timeout }), direct !== client && direct.end({ timeout })]);
    };
    const statements = options.pooled ? client : preparedSql(client);
    const db = drizzlePostgres(options.onStatement ? timedSql(statements, options.onStatement) : statements, { casing: CASING, logger });
    if (options.migrate) {
      const { migrate } = await import('drizzle-orm/postgres-js/migrator');
      // Several instances may start at once against one database: one migrates, the others wait
      // on the advisory lock, which lives on this single connection.
      // Through a transaction pooler the lock would be taken on one server connection and the
      // migration run on others: both go to the direct URL.
      const single = postgres(options.directUrl ?? options.url, { max: 1, onnotice: () => {}, connect_timeout: connectTimeout });
      try {
        await single`select pg_advisory_lock(7212021)`;
        options.onPhase?.('database open');
        await migrate(drizzlePostgres(single, { casing: CASING }), { migrationsFolder: MIGRATIONS_FOLDER });
      } catch (error) {
        await closeAll(0);
        throw error;
      } finally {
        await single.end({ timeout: 5 });
      }
      options.onPhase?.('migrations');
    }
    const listen: Database['listen'] = async (channel, onMessage, onResubscribe) => {
      let subscribed = false;
      const request = await direct.listen(channel, onMessage, () => {
        // postgres.js calls this on the first subscription and again after each reconnection.
        if (subscribed) onResubscribe();
        subscribed = true;
      });
      return () => request.unlisten();
    };
    return { db, kind: 'postgres', executeSql: postgresExecuteSql(client), listen, close: () => closeAll(5) };
  }

  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle: drizzlePglite } = await import('drizzle-orm/pglite');
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const unlock = options.dataDir ? lockDataDir(options.dataDir) : () => {};
  // A new folder starts as a copy of one made and migrated before (./pglite-template.ts).
  const isNew = Boolean(options.dataDir && options.migrate && isNewDataDir(options.dataDir));
  const template = isNew ? pgliteTemplatePath(MIGRATIONS_FOLDER) : undefined;
  const fromTemplate = template !== undefined && copyPgliteTemplate(template, options.dataDir!);
  // Without a template (a fresh clone's first start), the migrated folder shipped in drizzle/pglite/.
  const fromImage = isNew && !fromTemplate && (await unpackSeedImage(MIGRATIONS_FOLDER, options.dataDir!));
  const client = new PGlite(options.dataDir, options.loadDataDir ? { loadDataDir: options.loadDataDir } : undefined);
  const db = drizzlePglite(client, { casing: CASING, logger }) as unknown as Db;
  try {
    await client.waitReady;
    options.onPhase?.('database open');
    if (options.migrate) {
      const { migrate } = await import('drizzle-orm/pglite/migrator');
      await migrate(drizzlePglite(client, { casing: CASING }), { migrationsFolder: MIGRATIONS_FOLDER });
      options.onPhase?.('migrations');
    }
    if (template && !fromTemplate && !fromImage) {
      await client.query('checkpoint');
      savePgliteTemplate(template, options.dataDir!);
      options.onPhase?.('template saved');
    }
  } catch (error) {
    await client.close().catch(() => {});
    unlock();
    throw error;
  }
  const close = async () => {
    try {
      await client.close();
    } finally {
      unlock();
    }
  };
  return { ...pgliteDatabase(client, db), close };
}

/** An open PGlite as a Database, but for closing it (the tests hand one instance to file after file). */
export function pgliteDatabase(client: PGlite, db: Db): Omit<Database, 'close'> {
  // One process holds the database, so its subscription never drops.
  const listen: Database['listen'] = async (channel, onMessage) => {
    const unsubscribe = await client.listen(channel, onMessage);
    return () => unsubscribe();
  };
  return { db, kind: 'pglite', executeSql: pgliteExecuteSql(client), listen };
}

/** The pool's settings: the same for the app's pool, the direct one and a replica's. */
export function postgresOptions(pooled: boolean, max: number): Options<Record<string, never>> {
  // postgres.js waits 30 s by default for a connection to open: fail sooner when the database is away.
  const connectTimeout = Number(process.env.DATABASE_CONNECT_TIMEOUT_MS ?? 5_000) / 1000;
  return {
    max,
    onnotice: () => {},
    connect_timeout: connectTimeout,
    // The default back-off climbs to 20 s; a restarted database should be picked up quickly.
    backoff: (attempt: number) => Math.min(0.05 * 2 ** attempt, 1),
    // Through PgBouncer in transaction mode a statement prepared on one server connection is not
    // there on the next transaction's: unnamed statements only.
    prepare: !pooled,
    // No JIT: the visibility filters inflate the planner's estimates past jit_above_cost, and compiling
    // a 2 ms list query then took over a second (test/bench/worst.ts). PgBouncer refuses these as
    // startup parameters: behind it they are set by its `connect_query` (see README, Scaling out).
    // Prepared statements (./prepared-sql.ts) are still planned for their values on every run, as
    // unnamed ones were: after five runs PostgreSQL would switch to a generic plan, which took a
    // search across an organization from 0.1 s to 0.9 s. What preparing saves is the parse and
    // the describe round trip.
    ...(pooled ? {} : { connection: { statement_timeout: Number(process.env.STATEMENT_TIMEOUT_MS ?? 15_000), jit: 'off', plan_cache_mode: 'force_custom_plan' } }),
  } as Options<Record<string, never>>;
}

function postgresExecuteSql(client: Sql): ExecuteSql {
  return async (text, values = []) => {
    if (values.length) return { rows: await client.unsafe(text, values.map(postgresParam) as never[]) };
    // postgres.js refuses BEGIN on a pooled connection, and a statement failing after BEGIN leaves
    // its connection in an aborted transaction: run the text on a reserved one, rolled back on error.
    const reserved = await client.reserve();
    try {
      const result = await reserved.unsafe(text).simple();
      // Several statements answer one result per statement; callers want the last one's rows.
      return { rows: Array.isArray(result[0]) ? (result.at(-1) as unknown as unknown[]) : result };
    } catch (error) {
      await reserved.unsafe('rollback').catch(() => {});
      throw error;
    } finally {
      reserved.release();
    }
  };
}

/**
 * drizzle makes this client's json and timestamp serializers pass values through untouched, and
 * postgres.js refuses `undefined`: send what node-postgres would (objects as JSON text, dates as ISO
 * strings, `undefined` as null). Strings bound to json parameters are already JSON, as in pg.
 */
function postgresParam(value: unknown): unknown {
  if (value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  const plainObject = value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Uint8Array);
  return plainObject ? JSON.stringify(value) : value;
}

function pgliteExecuteSql(client: PGlite): ExecuteSql {
  return async (text, values = []) => {
    if (values.length) return { rows: (await client.query(text, values)).rows };
    // PGlite has a single session: a failure after the text's own BEGIN would leave every later
    // query of the app in an aborted transaction. Inside `transaction` a nested BEGIN is only a
    // warning, and the failure is rolled back before any other query gets the session.
    const results = await client.transaction((tx) => tx.exec(text));
    return { rows: results.at(-1)?.rows ?? [] };
  };
}
