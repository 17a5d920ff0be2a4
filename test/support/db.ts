import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import { openDatabase, StatementCounter, type Database } from '../../src/db/client';
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
  const url = process.env.DATABASE_URL;
  if (!url) {
    // Migrated once per run (global-setup.ts); migrate stays on to catch a dump older than drizzle/.
    const database = await openDatabase({ counter, migrate: true, loadDataDir: pgliteTemplate() });
    return { ...database, counter };
  }
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

let template: Blob | undefined;
function pgliteTemplate(): Blob {
  return (template ??= new Blob([readFileSync(inject('pgliteTemplate'))]));
}

/** The app's statements as drizzle sends them, text and parameters, besides their count. */
export class StatementLog extends StatementCounter {
  readonly statements: { sql: string; params: unknown[] }[] = [];
  override logQuery(sql = '', params: unknown[] = []): void {
    super.logQuery();
    this.statements.push({ sql, params });
  }
}
