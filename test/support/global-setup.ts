import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { MIGRATIONS_FOLDER, openDatabase } from '../../src/db/client';
import { CASING } from '../../src/db/dialect';

/**
 * On PostgreSQL (DATABASE_URL set), migrates a template database once; each test file then
 * clones it with CREATE DATABASE ... TEMPLATE, which takes milliseconds. On PGlite, migrates one
 * in-memory instance and dumps its data folder to a file; each file's instance starts from that
 * dump, which skips initdb and every migration.
 */
export default async function setup(project: TestProject) {
  const url = process.env.DATABASE_URL;
  if (!url) return pgliteTemplate(project);
  const template = `quire_template_${process.pid}`;
  const { default: postgres } = await import('postgres');
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${template}`);
  await admin.unsafe(`create database ${template}`);
  const db = await openDatabase({ url: withDatabase(url, template), migrate: true });
  await db.close();
  project.provide('templateDatabase', template);
  return async () => {
    await admin.unsafe(`drop database if exists ${template} with (force)`);
    await admin.end();
  };
}

async function pgliteTemplate(project: TestProject) {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const client = new PGlite();
  const file = join(tmpdir(), `quire-pglite-template-${process.pid}.tar`);
  try {
    await migrate(drizzle(client, { casing: CASING }), { migrationsFolder: MIGRATIONS_FOLDER });
    writeFileSync(file, Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer()));
  } finally {
    await client.close();
  }
  project.provide('pgliteTemplate', file);
  return () => rmSync(file, { force: true });
}

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

declare module 'vitest' {
  export interface ProvidedContext {
    templateDatabase: string;
    pgliteTemplate: string;
  }
}
