/**
 * The production build: the server and the CLI bundled by esbuild into dist/, run with plain node.
 *
 * npm packages stay external and load from node_modules at run time: the patched postgres.js
 * (patch-package edits node_modules), PGlite's wasm and data files, and GraphiQL's assets are then
 * found where their packages expect them. Migrations are read from drizzle/ next to dist/.
 * The two files the API reference serves come from devDependencies, absent from a production
 * install: they are copied to dist/assets/.
 */
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';

const require = createRequire(import.meta.url);
const root = join(dirname(new URL(import.meta.url).pathname), '..');
const out = join(root, 'dist');

rmSync(out, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: { main: 'src/main.ts', cli: 'src/cli/main.ts' },
  outdir: out,
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
});

mkdirSync(join(out, 'assets'));
copyFileSync(require.resolve('@gitbook/api/spec/openapi.json'), join(out, 'assets', 'gitbook-openapi.json'));
// The package exports no path to its browser build: go from its main entry (dist/index.js).
copyFileSync(join(dirname(require.resolve('@scalar/api-reference')), 'browser', 'standalone.js'), join(out, 'assets', 'scalar-api-reference.js'));
console.log(`Built ${out}: node dist/main.js (server), node dist/cli.js (command line)`);
