import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { pgliteImageKey } from './pglite-template';

/**
 * The very first start of a fresh clone has no template folder yet (./pglite-template.ts): without
 * help it runs PGlite's initdb (two PostgreSQL instances in WebAssembly at once, about twice the
 * memory of a restart) and every migration. The repository therefore ships one migrated data
 * folder, made by `npm run db:pglite-image` and cleanly shut down, as a brotli-compressed tar
 * (PGlite reads a plain tar through `loadDataDir` into the new folder, then opens it like a restart).
 *
 * It sits beside the migrations, so the Docker image and dist/ find it where they find drizzle/, and
 * is named after the same key as the template: after a new migration or a new PGlite its name no
 * longer matches, the slow path runs as before, and test/db/pglite-shipped-image.test.ts fails until
 * it is made again. QUIRE_PGLITE_SEED_IMAGE=off leaves it unused (to measure the path without it).
 */
export function seedImagePath(migrationsFolder: string): string {
  return join(seedImageFolder(migrationsFolder), `seed-${pgliteImageKey(migrationsFolder)}.tar.br`);
}

export function seedImageFolder(migrationsFolder: string): string {
  return join(migrationsFolder, 'pglite');
}

/** The shipped data folder as an uncompressed tar, or undefined when there is none for this key. */
export function readSeedImage(migrationsFolder: string): Blob | undefined {
  if (process.env.QUIRE_PGLITE_SEED_IMAGE?.trim() === 'off') return undefined;
  const file = seedImagePath(migrationsFolder);
  if (!existsSync(file)) return undefined;
  // About 42 MB once unpacked (16 of them the one WAL segment), read once at the first start.
  return new Blob([brotliDecompressSync(readFileSync(file))], { type: 'application/x-tar' });
}
