import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnServerProcess, startServerProcess, type StartedServer } from '../faults/server-process';
import { httpSettings, loadConfig } from '../../src/config/config';

/**
 * The real server (src/main.ts) reads the persisted operations file with its settings: a file that
 * cannot be used stops the start in one line, before the port is bound or the database written.
 */
const folder = mkdtempSync(join(tmpdir(), 'quire-persisted-'));

function file(name: string, content: string): string {
  const path = join(folder, name);
  writeFileSync(path, content);
  return path;
}

/** Embedded PGlite in a fresh directory (not created yet), whatever DATABASE_URL the suite runs with. */
function serverEnv(env: Record<string, string>): Record<string, string> & { QUIRE_DATA_DIR: string } {
  return { DATABASE_URL: '', QUIRE_DATA_DIR: join(mkdtempSync(join(tmpdir(), 'quire-persisted-data-')), 'data'), PORT: '0', ...env };
}

describe('start-up with QUIRE_PERSISTED_OPERATIONS', () => {
  const stale = file('stale.json', JSON.stringify({ abc123: 'query ViewerQuery {\n  viewer {\n    nickname\n  }\n}\n' }));
  const list = file('list.json', JSON.stringify(['{ viewer { user { id } } }']));

  it.each([
    [{ QUIRE_PERSISTED_OPERATIONS: stale }, `QUIRE_PERSISTED_OPERATIONS (${stale}): operation "abc123" does not fit the schema: Cannot query field "nickname" on type "Viewer". (line 3, column 5)`],
    [{ QUIRE_PERSISTED_OPERATIONS: list }, `QUIRE_PERSISTED_OPERATIONS (${list}): must be a JSON object of { "<id>": "<query text>" }, as relay-compiler --persist writes it`],
  ])('%o: one line on stderr, exit 1, nothing written', async (env, line) => {
    const settings = serverEnv(env);
    const server = spawnServerProcess(settings);
    await new Promise((resolve) => server.child.once('exit', resolve));
    expect(server.exit()?.code).toBe(1);
    expect(server.output().trim()).toBe(`Quire could not start: ${line}`);
    expect(existsSync(settings.QUIRE_DATA_DIR)).toBe(false);
  }, 60_000);
});

describe('the settings', () => {
  it('name the file, resolved, and whether only its operations run; GraphiQL is then off', () => {
    const both = loadConfig({ QUIRE_PERSISTED_OPERATIONS: 'ops.json' });
    expect(both.persistedOperations).toEqual({ file: join(process.cwd(), 'ops.json'), only: false });
    expect(httpSettings(both).graphiql).toBe(true);
    const only = loadConfig({ QUIRE_PERSISTED_OPERATIONS: 'ops.json', QUIRE_PERSISTED_ONLY: '1' });
    expect(only.persistedOperations).toEqual({ file: join(process.cwd(), 'ops.json'), only: true });
    expect(httpSettings(only).graphiql).toBe(false);
    expect(loadConfig({}).persistedOperations).toBeUndefined();
  });

  it('refuse what cannot work', () => {
    expect(() => loadConfig({ QUIRE_PERSISTED_ONLY: '1' })).toThrow(
      'Configuration error: QUIRE_PERSISTED_ONLY needs QUIRE_PERSISTED_OPERATIONS (without a file every operation would be refused)',
    );
    expect(() => loadConfig({ QUIRE_PERSISTED_OPERATIONS: 'ops.json', QUIRE_PERSISTED_ONLY: '1', QUIRE_GRAPHIQL: 'true' })).toThrow(
      'Configuration error: QUIRE_GRAPHIQL cannot be on with QUIRE_PERSISTED_ONLY (GraphiQL sends query text, which is then refused)',
    );
    expect(() => loadConfig({ QUIRE_PERSISTED_OPERATIONS: 'ops.json', QUIRE_PERSISTED_ONLY: 'yes' })).toThrow('QUIRE_PERSISTED_ONLY must be true or false, got yes');
  });
});

/** Resolves once the server has printed `pattern` (the demo token and the log come after its listening line). */
async function printed(server: StartedServer, pattern: RegExp): Promise<RegExpExecArray> {
  while (!pattern.test(server.output())) await new Promise((resolve) => server.child.stdout!.once('data', resolve));
  return pattern.exec(server.output())!;
}

describe('a server started with QUIRE_PERSISTED_ONLY', () => {
  let server: StartedServer | undefined;
  afterAll(() => server?.stop());

  it('runs the file’s operations, refuses query text, and serves no GraphiQL', async () => {
    const operations = file('ops.json', JSON.stringify({ 'viewer-1': 'query ViewerQuery { viewer { user { displayName } } }' }));
    server = await startServerProcess(serverEnv({ QUIRE_PERSISTED_OPERATIONS: operations, QUIRE_PERSISTED_ONLY: 'true' }));
    const [, token] = await printed(server, /Admin API token \(shown once, keep it\):\s+(quire_\S+)/);
    await printed(server, /"msg":"Persisted operations: 1 from [^"]+ops\.json \(only these run\)"/);
    expect(server.output()).toContain('"msg":"GraphQL: http://localhost:');
    expect(server.output()).not.toContain('In GraphiQL');
    const post = async (body: unknown) => {
      const response = await fetch(`${server!.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
      return { status: response.status, body: (await response.json()) as any };
    };
    expect(await post({ doc_id: 'viewer-1' })).toMatchObject({ status: 200, body: { data: { viewer: { user: { displayName: 'Ada Admin' } } } } });
    expect(await post({ query: '{ viewer { user { displayName } } }' })).toMatchObject({ status: 400, body: { errors: [{ extensions: { code: 'PERSISTED_QUERY_ONLY' } }] } });
    const page = await fetch(`${server.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(page.headers.get('content-type') ?? '').not.toContain('text/html');
  }, 90_000);
});
