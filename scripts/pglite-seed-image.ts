/**
 * Makes the migrated PGlite data folder the repository ships for a fresh clone's first start
 * (src/db/pglite-seed-image.ts), after a new migration or a new PGlite:
 *
 *   npm run db:pglite-image
 *
 * initdb and every migration run in a new folder on disk, PGlite is closed (a clean shutdown: the
 * control file says "shut down", so the folder opens without recovery), and the folder is written as
 * a tar, compressed with brotli at its highest quality, to drizzle/pglite/seed-<key>.tar.br. The
 * images of other keys are removed: one image is shipped, the current one.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { MIGRATIONS_FOLDER } from '../src/db/client';
import { CASING } from '../src/db/dialect';
import { seedImageFolder, seedImagePath } from '../src/db/pglite-seed-image';

/** One ustar header: short names only (a data folder's longest is about 30 characters). */
function header(name: string, size: number, mode: number, mtime: number, directory: boolean): Buffer {
  if (Buffer.byteLength(name) > 99) throw new Error(`name too long for a plain tar header: ${name}`);
  const block = Buffer.alloc(512);
  const octal = (value: number, at: number, length: number) => block.write(`${value.toString(8).padStart(length - 1, '0')}\0`, at, 'ascii');
  block.write(name, 0, 'utf8');
  octal(mode & 0o7777, 100, 8);
  octal(0, 108, 8);
  octal(0, 116, 8);
  octal(size, 124, 12);
  octal(Math.floor(mtime / 1000), 136, 12);
  block.write(directory ? '5' : '0', 156, 'ascii');
  block.write('ustar\u000000', 257, 'ascii');
  // The checksum counts its own field as eight spaces.
  block.fill(' ', 148, 156);
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return block;
}

/** The folder's files and folders, sorted, as a tar whose names are relative to it. */
function tarFolder(root: string): Buffer {
  const parts: Buffer[] = [];
  const walk = (relative: string) => {
    for (const name of readdirSync(join(root, relative)).sort()) {
      const path = relative ? `${relative}/${name}` : name;
      const stat = statSync(join(root, path));
      if (stat.isDirectory()) {
        parts.push(header(`${path}/`, 0, stat.mode, stat.mtimeMs, true));
        walk(path);
      } else {
        const data = readFileSync(join(root, path));
        parts.push(header(path, data.length, stat.mode, stat.mtimeMs, false), data, Buffer.alloc((512 - (data.length % 512)) % 512));
      }
    }
  };
  walk('');
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}

async function main() {
  const scratch = mkdtempSync(join(tmpdir(), 'quire-seed-image-'));
  try {
    const dataDir = join(scratch, 'pgdata');
    const client = new PGlite(dataDir);
    try {
      await migrate(drizzle(client, { casing: CASING }), { migrationsFolder: MIGRATIONS_FOLDER });
    } finally {
      await client.close();
    }
    const tar = tarFolder(dataDir);
    const image = brotliCompressSync(tar, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_LGWIN]: 24, [constants.BROTLI_PARAM_SIZE_HINT]: tar.length },
    });
    const target = seedImagePath(MIGRATIONS_FOLDER);
    mkdirSync(seedImageFolder(MIGRATIONS_FOLDER), { recursive: true });
    for (const old of readdirSync(seedImageFolder(MIGRATIONS_FOLDER))) {
      if (old.startsWith('seed-') && old !== basename(target)) rmSync(join(seedImageFolder(MIGRATIONS_FOLDER), old));
    }
    writeFileSync(target, image);
    console.log(`Wrote ${target}: ${(image.length / 2 ** 20).toFixed(2)} MB (${(tar.length / 2 ** 20).toFixed(1)} MB unpacked)`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
