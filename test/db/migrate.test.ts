import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client';
import { users } from '../../src/db/schema/users';
import { withDatabase } from '../support/global-setup';

/**
 * Several stateless instances start against one PostgreSQL at once: each runs migrations at
 * start, and the advisory lock must make that safe. (PGlite is one process: nothing to race.)
 */
describe.runIf(process.env.DATABASE_URL)('migrations on a shared PostgreSQL', () => {
  it('can be started by several instances at the same moment', async () => {
    const url = process.env.DATABASE_URL!;
    const name = `quire_race_${randomBytes(5).toString('hex')}`;
    const { default: postgres } = await import('postgres');
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    try {
      const instances = await Promise.all(Array.from({ length: 4 }, () => openDatabase({ url: withDatabase(url, name), migrate: true })));
      for (const instance of instances) expect(await instance.db.select().from(users)).toEqual([]);
      await Promise.all(instances.map((i) => i.close()));
    } finally {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});
