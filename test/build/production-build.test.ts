import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GitBookAPI } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * What `npm run build && npm run start:prod` gives: plain node on the bundle, started from another
 * directory on an empty embedded database, must migrate, seed, and answer the official client.
 */
const root = join(import.meta.dirname, '..', '..');
let dataDir: string;
let server: ChildProcess;
let output = '';
let endpoint: string;
let token: string;

beforeAll(async () => {
  const built = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, encoding: 'utf8' });
  expect(built.stderr).toBe('');
  expect(built.status).toBe(0);

  dataDir = mkdtempSync(join(tmpdir(), 'quire-build-'));
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', QUIRE_DATA_DIR: join(dataDir, 'data') };
  delete env.DATABASE_URL;
  server = spawn(process.execPath, [join(root, 'dist', 'main.js')], { cwd: dataDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  server.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // Ready once the seed's token is printed: it comes after "listening".
  await new Promise<void>((resolve, reject) => {
    server.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /listening on (http:\/\/localhost:\d+)/.exec(output);
      const printed = /keep it\):\s+(\S+)/.exec(output);
      if (listening && printed) {
        endpoint = listening[1];
        token = printed[1];
        resolve();
      }
    });
    server.once('exit', (code) => reject(new Error(`dist/main.js exited with ${code}:\n${output}`)));
  });
}, 120_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('the production build', () => {
  it('serves the official client from node dist/main.js', async () => {
    const api = new GitBookAPI({ endpoint, authToken: token });
    const { data: orgs } = await api.orgs.listOrganizationsForAuthenticatedUser();
    expect(orgs.items.map((o) => o.title)).toEqual(['Demo Organization']);
    const organizationId = orgs.items[0].id;

    const { data: space, status } = await api.orgs.createSpace(organizationId, { title: 'Built and shipped' });
    expect(status).toBe(201);
    const { data: read } = await api.spaces.getSpaceById(space.id);
    expect(read.title).toBe('Built and shipped');
    const { data: members } = await api.orgs.listMembersInOrganizationById(organizationId);
    expect(members.items.length).toBeGreaterThan(1);
  });

  it('answers GraphQL and the API reference with its bundled assets', async () => {
    const graphql = await fetch(`${endpoint}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: '{ viewer { user { displayName } } }' }),
    });
    expect((await graphql.json()).data.viewer.user.displayName).toBeTruthy();
    const graphiql = await fetch(`${endpoint}/graphql`, { headers: { accept: 'text/html' } });
    expect(await graphiql.text()).toContain('<html');
    const document = await (await fetch(`${endpoint}/v1/openapi.json`)).json();
    expect(document.paths['/spaces/{spaceId}'].get.operationId).toBe('getSpaceById');
    const script = await fetch(`${endpoint}/v1/docs/scalar.js`);
    expect(script.status).toBe(200);
    expect((await script.text()).length).toBeGreaterThan(1_000_000);
  });

  it('stops cleanly on SIGTERM', async () => {
    const exited = new Promise<number | null>((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
