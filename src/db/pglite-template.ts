import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { LOCK_FILE } from './data-dir-lock';

/**
 * A fresh PGlite data folder costs an initdb (two PostgreSQL instances in WebAssembly at once: about
 * 10 s and 1 GB on a busy machine) and every migration. Once one folder has been made and migrated,
 * its files are kept as a template and copied into the next empty folder, which PGlite then opens
 * like a restart: the first start on a new folder costs a restart plus a copy.
 *
 * The template is named after the PGlite version and the migrations' text, so a new migration or a
 * new PGlite makes a new one and a stale one is never used. Kept in node_modules/.cache (where
 * tools keep what can be thrown away) unless QUIRE_PGLITE_TEMPLATE_DIR says otherwise, or "off".
 */
export function pgliteTemplatePath(migrationsFolder: string): string | undefined {
  const setting = process.env.QUIRE_PGLITE_TEMPLATE_DIR?.trim();
  if (setting === 'off') return undefined;
  const root = setting || join(dirname(migrationsFolder), 'node_modules', '.cache', 'quire');
  return join(root, `pglite-${pgliteImageKey(migrationsFolder)}`);
}

/** Names a migrated data folder: the PGlite version and every migration's text (also the shipped image's name). */
export function pgliteImageKey(migrationsFolder: string): string {
  const hash = createHash('sha256');
  const pgliteEntry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  hash.update(readFileSync(join(packageRoot(pgliteEntry), 'package.json')));
  const journal = join(migrationsFolder, 'meta', '_journal.json');
  hash.update(readFileSync(journal));
  for (const file of readdirSync(migrationsFolder).filter((name) => name.endsWith('.sql')).sort()) {
    hash.update(file).update(readFileSync(join(migrationsFolder, file)));
  }
  return hash.digest('hex').slice(0, 16);
}

function packageRoot(entry: string): string {
  let folder = dirname(entry);
  // Bounded: a package's entry sits a few folders below its package.json.
  for (let i = 0; i < 8 && !existsSync(join(folder, 'package.json')); i++) folder = dirname(folder);
  return folder;
}

/** A data folder PostgreSQL has never been started in (the lock file may already be there). */
export function isNewDataDir(dataDir: string): boolean {
  return !existsSync(join(dataDir, 'PG_VERSION'));
}

/** Copies the template into an empty data folder; false when there is no template yet. */
export function copyPgliteTemplate(template: string | undefined, dataDir: string): boolean {
  if (!template || !existsSync(join(template, 'PG_VERSION'))) return false;
  cpSync(template, dataDir, { recursive: true });
  return true;
}

/**
 * Keeps a just-migrated data folder as the template. The caller has run CHECKPOINT and runs nothing
 * meanwhile (PGlite writes only while it runs a statement), so the files are a consistent copy,
 * opened later as after a restart. Written beside and renamed, so a reader never sees half of one.
 * A template that cannot be written (read-only install) is only a slower next first start.
 */
export function savePgliteTemplate(template: string | undefined, dataDir: string): void {
  if (!template || existsSync(template)) return;
  const partial = `${template}.${process.pid}.partial`;
  try {
    mkdirSync(dirname(template), { recursive: true });
    cpSync(dataDir, partial, { recursive: true, filter: (source) => basename(source) !== LOCK_FILE });
    renameSync(partial, template);
  } catch {
    rmSync(partial, { recursive: true, force: true });
  }
}
