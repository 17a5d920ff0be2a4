/**
 * Makes an extracted checkout of the platform's catalogue buildable outside its bun workspace, as a
 * developer would: the workspace packages the integrations import (`@gitbook/runtime`,
 * `@gitbook/api`, and `@gitbook/tsconfig`, which their tsconfig extends) resolve from the
 * checkout's root `node_modules` (the npm releases Quire's own node_modules holds, the tsconfig from
 * the checkout), and each integration's other dependencies are installed from the npm registry in
 * a temp folder, then copied next to it. The integrations' files are not touched.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const QUIRE_MODULES = resolve(import.meta.dirname, '../../node_modules');

export function integrationNames(checkout: string): string[] {
  return readdirSync(resolve(checkout, 'integrations'), { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(resolve(checkout, 'integrations', d.name, 'gitbook-manifest.yaml')))
    .map((d) => d.name)
    .sort();
}

function linkWorkspacePackages(checkout: string): void {
  const scope = resolve(checkout, 'node_modules/@gitbook');
  mkdirSync(scope, { recursive: true });
  const links: Record<string, string> = {
    runtime: resolve(QUIRE_MODULES, '@gitbook/runtime'),
    api: resolve(QUIRE_MODULES, '@gitbook/api'),
    tsconfig: resolve(checkout, 'packages/tsconfig'),
  };
  for (const [name, target] of Object.entries(links)) if (!existsSync(resolve(scope, name))) symlinkSync(target, resolve(scope, name));
}

/** Installs what one integration needs besides the workspace; a failure is returned, not thrown. */
async function installDependencies(checkout: string, name: string): Promise<string | null> {
  const folder = resolve(checkout, 'integrations', name);
  if (existsSync(resolve(folder, 'node_modules'))) return null;
  const manifest = JSON.parse(readFileSync(resolve(folder, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  const dependencies = Object.fromEntries(Object.entries(manifest.dependencies ?? {}).filter(([dep]) => !dep.startsWith('@gitbook/')));
  if (!Object.keys(dependencies).length) {
    mkdirSync(resolve(folder, 'node_modules'));
    return null;
  }
  const staging = resolve(tmpdir(), 'quire-catalogue-deps', name);
  mkdirSync(staging, { recursive: true });
  writeFileSync(resolve(staging, 'package.json'), JSON.stringify({ name: `catalogue-${name}`, private: true, dependencies }));
  try {
    await run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: staging, timeout: 300_000 });
  } catch (error) {
    return `npm install failed: ${(error as Error).message.split('\n')[0]}`;
  }
  cpSync(resolve(staging, 'node_modules'), resolve(folder, 'node_modules'), { recursive: true });
  return null;
}

export async function prepareCheckout(checkout: string, names: string[]): Promise<Map<string, string>> {
  linkWorkspacePackages(checkout);
  const failures = new Map<string, string>();
  for (const name of names) {
    const failure = await installDependencies(checkout, name);
    if (failure) failures.set(name, failure);
  }
  return failures;
}
