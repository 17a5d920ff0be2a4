import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * What a production install (`npm ci --omit=dev`) runs must come with it: the postinstall step
 * that patches postgres.js and drizzle, and the start command. Read from package.json and the lock
 * file as npm reads them, so moving a package to devDependencies fails here, not on a server.
 */
const root = join(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string>; dependencies: Record<string, string> };
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean; bin?: Record<string, string> }> };

/** The package whose bin a script's first word names, from the lock file. */
function binOwner(command: string): string | null {
  const bin = command.replace(/^exec\s+/, '').split(/\s+/)[0];
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path.startsWith('node_modules/') && !path.slice('node_modules/'.length).includes('node_modules/') && entry.bin && bin in entry.bin) return path.slice('node_modules/'.length);
  }
  return null;
}

describe('the production install', () => {
  it('installs what postinstall runs: the patches apply under npm ci --omit=dev', () => {
    const owner = binOwner(pkg.scripts.postinstall);
    expect(owner).toBe('patch-package');
    expect(pkg.dependencies).toHaveProperty(owner!);
    expect(lock.packages[`node_modules/${owner}`].dev).toBeUndefined();
  });

  it('start:prod replaces npm with node (exec), so a SIGTERM reaches the server, not npm', () => {
    expect(pkg.scripts['start:prod']).toMatch(/^exec node /);
    expect(pkg.scripts.start).toMatch(/^exec node /);
  });
});
