import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve, relative } from 'node:path';
import { expect, inject } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { openDatabase, pgliteDatabase, StatementCounter, type Database, type Db } from '../../src/db/client';
import { CASING } from '../../src/db/dialect';
import { withDatabase } from './global-setup';

export interface TestDatabase extends Database {
  counter: StatementCounter;
  /** The database's URL on PostgreSQL, to open more pools on it (as more instances would); absent on PGlite. */
  url?: string;
}

/**
 * A fresh, migrated database for one test file: a clone of the template on PostgreSQL, PGlite
 * otherwise. `counter` is the drizzle logger of the app's queries (a `StatementLog` keeps their text).
 */
export async function createTestDatabase(counter: StatementCounter = new StatementCounter()): Promise<TestDatabase> {
  refuseDatabaseFreeFile();
  const url = process.env.DATABASE_URL;
  if (!url) return pgliteTestDatabase(counter);
  const name = `quire_test_${randomBytes(6).toString('hex')}`;
  const { default: postgres } = await import('postgres');
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name} template ${inject('templateDatabase')}`);
  const database = await openDatabase({ url: withDatabase(url, name), counter });
  return {
    ...database,
    counter,
    url: withDatabase(url, name),
    kind: 'postgres',
    close: async () => {
      await database.close();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

/** The files test/database-free.txt lists run on one database only in CI: they must not open one. */
const DATABASE_FREE = new Set(
  readFileSync(new URL('../database-free.txt', import.meta.url), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => resolve(line)),
);
function refuseDatabaseFreeFile(): void {
  const file = expect.getState().testPath;
  if (file && DATABASE_FREE.has(resolve(file))) throw new Error(`${relative(process.cwd(), file)} is listed in test/database-free.txt but opened a database: take it off the list`);
}

let template: Blob | undefined;
function pgliteTemplate(): Blob {
  return (template ??= new Blob([readFileSync(inject('pgliteTemplate'))]));
}

/**
 * PGlite instances that this worker's finished files gave back. Starting one from the dump costs
 * one to several seconds of WebAssembly start-up; emptying its tables costs milliseconds, so a file
 * takes a used one, emptied, and only a file that needs a second database at once starts another.
 */
const idle: PGlite[] = [];
let emptyTables: string | undefined;

async function pgliteTestDatabase(counter: StatementCounter): Promise<TestDatabase> {
  let client = idle.pop();
  if (client) await client.exec(emptyTables ??= await emptyTablesStatement(client));
  else {
    // Migrated once per run (global-setup.ts); migrate stays on to catch a dump older than drizzle/.
    const opened = await openDatabase({ migrate: true, loadDataDir: pgliteTemplate() });
    client = (opened.db as unknown as { $client: PGlite }).$client;
  }
  const instance = client;
  // A file's handle acts closed once the file closes it, as a real one would, while the instance goes on to the next file.
  let closed = false;
  const guarded = new Proxy(instance, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (closed) throw new Error('PGlite is closed');
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  const database = pgliteDatabase(guarded, drizzle(guarded, { casing: CASING, logger: counter }) as unknown as Db);
  // Subscriptions the file left open would call into its stopped app on the next file's notifications.
  const subscriptions = new Set<() => Promise<void>>();
  return {
    ...database,
    counter,
    async listen(channel, onMessage, onResubscribe) {
      const unsubscribe = await database.listen(channel, onMessage, onResubscribe);
      const once = async () => {
        if (!subscriptions.delete(once)) return;
        await unsubscribe();
      };
      subscriptions.add(once);
      return once;
    },
    async close() {
      if (closed) return;
      for (const unsubscribe of [...subscriptions]) await unsubscribe();
      closed = true;
      idle.push(instance);
    },
  };
}

/** Every table of the app emptied, and the job queue's schema dropped: a queue started next makes it anew. */
async function emptyTablesStatement(client: PGlite): Promise<string> {
  const { rows } = await client.query<{ name: string }>(`select format('%I.%I', schemaname, tablename) as name from pg_tables where schemaname = 'public' order by 1`);
  return `truncate ${rows.map((r) => r.name).join(', ')} restart identity cascade; drop schema if exists pgboss cascade; select pg_advisory_unlock_all();`;
}

/** The app's statements as drizzle sends them, text and parameters, besides their count. */
export class StatementLog extends StatementCounter {
  readonly statements: { sql: string; params: unknown[] }[] = [];
  override logQuery(sql = '', params: unknown[] = []): void {
    super.logQuery();
    this.statements.push({ sql, params });
  }
}
