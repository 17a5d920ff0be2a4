import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER, openDatabase } from '../../src/db/client';
import { pgliteTemplatePath } from '../../src/db/pglite-template';
import { users } from '../../src/db/schema/users';

/**
 * A new PGlite data folder is made from the template the first new folder left behind: it must be a
 * database like one made from scratch (every migration applied, writable, its own), and the
 * template itself must stay as it was.
 */
describe.skipIf(process.env.DATABASE_URL)('PGlite data folder template', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'quire-template-test-'));
  const saved = process.env.QUIRE_PGLITE_TEMPLATE_DIR;
  const savedImage = process.env.QUIRE_PGLITE_SEED_IMAGE;
  beforeAll(() => {
    // The first folder must run initdb and leave the template: not start from the shipped image.
    process.env.QUIRE_PGLITE_SEED_IMAGE = 'off';
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.QUIRE_PGLITE_TEMPLATE_DIR;
    else process.env.QUIRE_PGLITE_TEMPLATE_DIR = saved;
    if (savedImage === undefined) delete process.env.QUIRE_PGLITE_SEED_IMAGE;
    else process.env.QUIRE_PGLITE_SEED_IMAGE = savedImage;
    rmSync(scratch, { recursive: true, force: true });
  });

  it('starts the second new folder from the first one, with every migration and none of its rows', async () => {
    process.env.QUIRE_PGLITE_TEMPLATE_DIR = join(scratch, 'templates');
    const template = pgliteTemplatePath(MIGRATIONS_FOLDER)!;
    const migrations = readdirSync(MIGRATIONS_FOLDER).filter((name) => name.endsWith('.sql')).length;
    const applied = async (db: Awaited<ReturnType<typeof openDatabase>>) => (await db.executeSql('select count(*)::int as n from drizzle.__drizzle_migrations')).rows[0];

    const first = await openDatabase({ dataDir: join(scratch, 'first'), migrate: true });
    expect(existsSync(join(template, 'PG_VERSION'))).toBe(true);
    expect(readdirSync(template)).not.toContain('quire.lock');
    await first.db.insert(users).values({ id: 'u_first', email: 'first@example.test', displayName: 'First' });
    await first.close();

    const phases: string[] = [];
    const second = await openDatabase({ dataDir: join(scratch, 'second'), migrate: true, onPhase: (phase) => phases.push(phase) });
    try {
      expect(await applied(second)).toEqual({ n: migrations });
      expect(phases).not.toContain('template saved');
      // The first folder's rows were written after the template was taken.
      expect(await second.db.select().from(users)).toEqual([]);
      await second.db.insert(users).values({ id: 'u_second', email: 'second@example.test', displayName: 'Second' });
      expect((await second.executeSql('select email from users')).rows).toEqual([{ email: 'second@example.test' }]);
    } finally {
      await second.close();
    }
    // Two PGlite starts, the first with an initdb: slower than most tests' one clone.
  }, 120_000);

  it('is not used when turned off', () => {
    process.env.QUIRE_PGLITE_TEMPLATE_DIR = 'off';
    expect(pgliteTemplatePath(MIGRATIONS_FOLDER)).toBeUndefined();
  });
});
