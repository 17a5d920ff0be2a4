import { createReadStream, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createBrotliDecompress } from 'node:zlib';
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
 * through its WebAssembly file system): PGlite then opens the folder like a restart. Streamed, one
 * entry at a time, so no 41 MB buffer stays in memory (until a garbage collection) beside PGlite's.
 */
export async function unpackSeedImage(migrationsFolder: string, dataDir: string): Promise<boolean> {
  if (process.env.QUIRE_PGLITE_SEED_IMAGE?.trim() === 'off') return false;
  const file = seedImagePath(migrationsFolder);
  if (!existsSync(file)) return false;
  let version: Buffer | undefined;
  let chunks: Buffer[] = [];
  let have = 0;
  // Bytes wanted before the next look: a header, then the whole entry (the largest, a WAL segment, 16 MB).
  let need = 512;
  for await (const chunk of createReadStream(file).pipe(createBrotliDecompress()) as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    have += chunk.length;
    while (have >= need) {
      const buffer = chunks.length > 1 ? Buffer.concat(chunks) : chunks[0]!;
      const entry = nextEntry(buffer);
      if (!entry) {
        // The end of the archive: two zero blocks, then padding.
        [chunks, have, need] = [[], 0, Infinity];
        break;
      }
      if (entry.length > have) {
        [chunks, need] = [[buffer], entry.length];
        break;
      }
      const target = join(dataDir, entry.name);
      // Database files are the server's alone: owner-only, as initdb makes them.
      if (entry.directory) mkdirSync(target, { recursive: true, mode: 0o700 });
      else if (entry.name === 'PG_VERSION') version = Buffer.from(entry.data);
      else writeFileSync(target, entry.data, { mode: 0o600 });
      [chunks, have, need] = [[buffer.subarray(entry.length)], have - entry.length, 512];
    }
  }
  // Last: a folder with PG_VERSION counts as made (./pglite-template.ts), so a half-unpacked one must not have it.
  if (!version) throw new Error(`${file} holds no PG_VERSION`);
  writeFileSync(join(dataDir, 'PG_VERSION'), version, { mode: 0o600 });
  return true;
}

interface TarEntry {
  name: string;
  directory: boolean;
  data: Buffer;
  /** Bytes from its header to the next one. */
  length: number;
}

/** The entry whose header starts `tar` (its data may not all be there yet: see `length`); undefined at the end. */
function nextEntry(tar: Buffer): TarEntry | undefined {
  if (tar.length < 512 || tar[0] === 0) return undefined;
  const field = (from: number, length: number) => tar.toString('utf8', from, from + length).replace(/\0.*$/s, '');
  const name = field(0, 100);
  const size = parseInt(field(124, 12).trim() || '0', 8);
  if (name.split('/').includes('..') || name.startsWith('/')) throw new Error(`unsafe name in the PGlite image: ${name}`);
  return { name: name.replace(/\/$/, ''), directory: field(156, 1) === '5', data: tar.subarray(512, 512 + size), length: 512 + Math.ceil(size / 512) * 512 };
}

/** The entries of a whole plain (ustar) tar, in order; names that would leave the folder are refused. */
export function* tarEntries(tar: Buffer): Generator<TarEntry> {
  for (let entry = nextEntry(tar); entry; entry = nextEntry(tar)) {
    yield entry;
    tar = tar.subarray(entry.length);
  }
}
