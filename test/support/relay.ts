import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');

/**
 * A Relay app's own build: copies test/fixtures/<fixture> and Quire's printed schema.graphql into a
 * temporary folder and runs the real relay-compiler there, so nothing generated lands in the
 * repository. Answers the folder; its artifacts are in src/__generated__.
 */
export function compileRelayApp(fixture: string): string {
  const dir = mkdtempSync(join(tmpdir(), `quire-${fixture}-`));
  cpSync(join(ROOT, 'test/fixtures', fixture), dir, { recursive: true });
  cpSync(join(ROOT, 'schema.graphql'), join(dir, 'schema.graphql'));
  const config = JSON.parse(readFileSync(join(dir, 'relay.config.json'), 'utf8')) as { persistConfig?: { file?: string } };
  // relay-compiler adds to the persisted file it is given: a first build starts from an empty one.
  if (config.persistConfig?.file) writeFileSync(join(dir, config.persistConfig.file), '{}\n');
  execFileSync(join(ROOT, 'node_modules/.bin/relay-compiler'), [], { cwd: dir, stdio: 'pipe' });
  return dir;
}

/** One compiled artifact (a query or a fragment) of an app built by compileRelayApp. */
export async function relayArtifact<T>(dir: string, name: string): Promise<T> {
  return ((await import(join(dir, `src/__generated__/${name}.graphql.ts`))) as { default: T }).default;
}
