import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER, openDatabase } from '../../src/db/client';
import { seedImageFolder, seedImagePath, tarEntries } from '../../src/db/pglite-seed-image';
import { users } from '../../src/db/schema/users';

const REGENERATE = 'the shipped PGlite image is stale (a migration or PGlite changed): run `npm run db:pglite-image` and commit drizzle/pglite/';

const fileInTar = (tar: Buffer, name: string) => [...tarEntries(tar)].find((entry) => entry.name === name)?.data;

/**
 * A fresh clone's first start opens the migrated data folder shipped in drizzle/pglite/ instead of
 * running initdb and every migration. The image must match today's migrations and PGlite (its name
 * is their hash), be a cleanly shut-down folder, and give a database like one made from scratch.
 */
describe('PGlite image shipped for the first start', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'quire-seed-image-test-'));
  const saved = process.env.QUIRE_PGLITE_TEMPLATE_DIR;
  afterAll(() => {
    if (saved === undefined) delete process.env.QUIRE_PGLITE_TEMPLATE_DIR;
    else process.env.QUIRE_PGLITE_TEMPLATE_DIR = saved;
    rmSync(scratch, { recursive: true, force: true });
  });

  it('is made from the current migrations and PGlite version, and is the only one shipped', () => {
    expect(readdirSync(seedImageFolder(MIGRATIONS_FOLDER)), REGENERATE).toEqual([basename(seedImagePath(MIGRATIONS_FOLDER))]);
  });

  it('holds a cleanly shut-down data folder without a lock or pid file', () => {
    const tar = brotliDecompressSync(readFileSync(seedImagePath(MIGRATIONS_FOLDER)));
    const control = fileInTar(tar, 'global/pg_control');
    expect(control).toBeDefined();
    // ControlFileData: system identifier (8 bytes), two version numbers (4 + 4), then the state;
    // 1 is DB_SHUTDOWNED, so the folder opens without crash recovery.
    expect(control!.readUInt32LE(16)).toBe(1);
    expect(fileInTar(tar, 'postmaster.pid')).toBeUndefined();
    expect(fileInTar(tar, 'quire.lock')).toBeUndefined();
  });

  it.skipIf(process.env.DATABASE_URL)('starts a new data folder with every migration, writable, without saving a template', async () => {
    process.env.QUIRE_PGLITE_TEMPLATE_DIR = join(scratch, 'templates');
    const phases: string[] = [];
    const db = await openDatabase({ dataDir: join(scratch, 'data'), migrate: true, onPhase: (phase) => phases.push(phase) });
    try {
      const migrations = readdirSync(MIGRATIONS_FOLDER).filter((name) => name.endsWith('.sql')).length;
      expect((await db.executeSql('select count(*)::int as n from drizzle.__drizzle_migrations')).rows[0]).toEqual({ n: migrations });
      expect(phases).not.toContain('template saved');
      await db.db.insert(users).values({ id: 'u_seeded', email: 'seeded@example.test', displayName: 'Seeded' });
      expect((await db.executeSql('select email from users')).rows).toEqual([{ email: 'seeded@example.test' }]);
    } finally {
      await db.close();
    }
    // Reopened like any restart: the rows are on disk in the new folder.
    const again = await openDatabase({ dataDir: join(scratch, 'data'), migrate: true });
    try {
      expect((await again.executeSql('select email from users')).rows).toEqual([{ email: 'seeded@example.test' }]);
    } finally {
      await again.close();
    }
  }, 120_000);
});
