import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { pgliteImageKey } from './pglite-template';

/**
 * The very first start of a fresh clone has no template folder yet (./pglite-template.ts): without
 * help it runs PGlite's initdb (two PostgreSQL instances in WebAssembly at once, about twice the
 * memory of a restart) and every migration. The repository therefore ships one migrated data
 * folder, made by `npm run db:pglite-image` and cleanly shut down, as a brotli-compressed tar,
 * unpacked into the new folder before PGlite opens it.
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

/**
 * Unpacks the shipped folder into an empty data folder; false when there is none for this key. Written
 * here, as the template is copied, rather than through PGlite's `loadDataDir` (which pushes the 41 MB
 * through its WebAssembly file system): PGlite then opens the folder like a restart.
 */
export function unpackSeedImage(migrationsFolder: string, dataDir: string): boolean {
  if (process.env.QUIRE_PGLITE_SEED_IMAGE?.trim() === 'off') return false;
  const file = seedImagePath(migrationsFolder);
  if (!existsSync(file)) return false;
  let version: Buffer | undefined;
  for (const entry of tarEntries(brotliDecompressSync(readFileSync(file)))) {
    const target = join(dataDir, entry.name);
    // Database files are the server's alone: owner-only, as initdb makes them.
    if (entry.directory) mkdirSync(target, { recursive: true, mode: 0o700 });
    else if (entry.name === 'PG_VERSION') version = entry.data;
    else writeFileSync(target, entry.data, { mode: 0o600 });
  }
  // Last: a folder with PG_VERSION counts as made (./pglite-template.ts), so a half-unpacked one must not have it.
  if (!version) throw new Error(`${file} holds no PG_VERSION`);
  writeFileSync(join(dataDir, 'PG_VERSION'), version, { mode: 0o600 });
  return true;
}

/** The entries of a plain (ustar) tar, in order; names that would leave the folder are refused. */
export function* tarEntries(tar: Buffer): Generator<{ name: string; directory: boolean; data: Buffer }> {
  for (let at = 0; at + 512 <= tar.length && tar[at] !== 0; ) {
    const field = (from: number, length: number) => tar.toString('utf8', at + from, at + from + length).replace(/\0.*$/s, '');
    const name = field(0, 100);
    const size = parseInt(field(124, 12).trim() || '0', 8);
    if (name.split('/').includes('..') || name.startsWith('/')) throw new Error(`unsafe name in the PGlite image: ${name}`);
    yield { name: name.replace(/\/$/, ''), directory: field(156, 1) === '5', data: tar.subarray(at + 512, at + 512 + size) };
    at += 512 + Math.ceil(size / 512) * 512;
  }
}
