import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The module boundaries of the style guide, checked on the source text: adapters hold no SQL,
 * and a module reaches into another only through the files meant to be shared.
 */
const MODULES = join(process.cwd(), 'src/modules');
/** What one module may take from another: use cases, tables for joins, presenters, input schemas. */
const SHARED_FILES = new Set(['service', 'table', 'present', 'input']);
const ADAPTERS = new Set(['rest.ts', 'graphql.ts', 'present.ts']);

interface Import {
  file: string;
  spec: string;
  typeOnly: boolean;
}

function moduleImports(): Import[] {
  const out: Import[] = [];
  for (const mod of readdirSync(MODULES)) {
    for (const name of readdirSync(join(MODULES, mod))) {
      const text = readFileSync(join(MODULES, mod, name), 'utf8');
      for (const m of text.matchAll(/^import\s+(type\s+)?[^;]*?from\s+'([^']+)';/gms)) {
        out.push({ file: `${mod}/${name}`, spec: m[2], typeOnly: Boolean(m[1]) });
      }
    }
  }
  return out;
}

describe('architecture', () => {
  const imports = moduleImports();

  it('finds the modules it checks', () => {
    expect(imports.length).toBeGreaterThan(50);
  });

  it('keeps SQL, tables and loaders out of REST and GraphQL adapters', () => {
    const offending = imports.filter(
      (i) =>
        ADAPTERS.has(i.file.split('/')[1]) &&
        !i.typeOnly &&
        (i.spec.startsWith('drizzle-orm') || /^\.\/(table|loaders)$|^\.\.\/[a-z-]+\/(table|loaders)$/.test(i.spec) || i.spec.includes('/db/')),
    );
    expect(offending.map((i) => `${i.file} imports ${i.spec}`)).toEqual([]);
  });

  it('lets a module use another only through its service, tables, presenters and input schemas', () => {
    const offending = imports.filter((i) => {
      const m = /^\.\.\/([a-z-]+)\/([a-z-]+)$/.exec(i.spec);
      return m !== null && !SHARED_FILES.has(m[2]);
    });
    expect(offending.map((i) => `${i.file} imports ${i.spec}`)).toEqual([]);
  });
});
