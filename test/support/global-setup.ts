import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/db/client';

/**
 * On PostgreSQL (DATABASE_URL set), migrates a template database once; each test file then
 * clones it with CREATE DATABASE ... TEMPLATE, which takes milliseconds. On PGlite there is
 * nothing to share: each file migrates its own in-memory instance.
 */
export default async function setup(project: TestProject) {
  const url = process.env.DATABASE_URL;
  if (!url) return;
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

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

declare module 'vitest' {
  export interface ProvidedContext {
    templateDatabase: string;
  }
}
