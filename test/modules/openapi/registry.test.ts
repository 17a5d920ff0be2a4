import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { GitBookAPI } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openapiSpecs, openapiSpecVersions } from '../../../src/db/schema/openapi';
import { startTestApp, type TestApp } from '../../support/clients';
import { buildMember, buildOrganization, type Actor, type OrgFixture } from '../../support/factories';
import { validateResponse } from '../../support/openapi';

const exec = promisify(execFile);

/** The OpenAPI spec registry against a local server the test starts, through REST, the official client and the official CLI. */
const PETSTORE = `openapi: 3.0.3
info: { title: Pets, version: 1.2.0 }
paths:
  /pets:
    get:
      operationId: listPets
      summary: List the pets
      tags: [pets]
      parameters: [{ name: limit, in: query, required: false, schema: { type: integer } }]
      responses: { '200': { description: A page of pets } }
    post:
      operationId: createPet
      summary: Add a pet
      tags: [pets]
      responses: { '201': { description: Created } }
`;

let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;
let reader: Actor;
let guest: Actor;
let server: Server;
let origin: string;
let home: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/petstore.yaml') return res.writeHead(200, { 'content-type': 'application/yaml' }).end(PETSTORE);
    if (req.url === '/broken.yaml') return res.writeHead(200, { 'content-type': 'application/yaml' }).end('openapi: 3.0.3\ninfo: [unclosed\n');
    if (req.url === '/missing') return res.writeHead(404).end();
    // /slow never answers: the fetch must give up.
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  t = await startTestApp({ fetchAllowHosts: [new URL(origin).host], fetchTimeoutMs: 300 }, { jobs: true });
  acme = await buildOrganization(t.db, 'Acme');
  other = await buildOrganization(t.db, 'Other');
  reader = await buildMember(t.db, acme.organizationId, 'read');
  guest = await buildMember(t.db, acme.organizationId, null);
  home = mkdtempSync(join(tmpdir(), 'quire-cli-home-'));
});
afterAll(async () => {
  server?.closeAllConnections();
  server?.close();
  await t?.close();
  rmSync(home, { recursive: true, force: true });
});

const specs = (org = acme.organizationId) => `/v1/orgs/${org}/openapi`;

/** Waits for the processing job to finish: the spec reads `complete`. */
async function processed(slug: string) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const res = await t.rest('GET', `${specs()}/${slug}`, { token: acme.admin.token });
    if (res.body.processingState === 'complete' || Date.now() > deadline) return res.body;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('processing', () => {
  it('fetches a spec from a URL, validates it and stores a version', async () => {
    const created = await t.rest('POST', specs(), { token: acme.admin.token, body: { slug: 'pets', source: { url: `${origin}/petstore.yaml` } } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ object: 'openapi-spec', slug: 'pets', processingState: 'pending', sourceURL: `${origin}/petstore.yaml`, permissions: { view: true, edit: true } });
    const done = await processed('pets');
    expect(done).toMatchObject({ processingState: 'complete', lastVersion: expect.any(String) });
    expect(done.lastProcessErrorCode).toBeUndefined();
    const [version] = await t.db.select().from(openapiSpecVersions);
    expect(version).toMatchObject({ title: 'Pets', apiVersion: '1.2.0' });
    expect(version.operations.map((o) => `${o.method} ${o.path} ${o.operationId}`)).toEqual(['GET /pets listPets', 'POST /pets createPet']);
  });

  it('takes the document as text, and a new PUT stores a new version (201 then 200)', async () => {
    const first = await t.rest('PUT', `${specs()}/pets-text`, { token: acme.admin.token, body: { source: { text: PETSTORE } } });
    expect(first.status).toBe(201);
    const v1 = (await processed('pets-text')).lastVersion;
    const again = await t.rest('PUT', `${specs()}/pets-text`, { token: acme.admin.token, body: { source: { text: PETSTORE.replace('1.2.0', '1.3.0') } } });
    expect(again.status).toBe(200);
    const v2 = (await processed('pets-text')).lastVersion;
    expect(v2).not.toBe(v1);
  });

  it.each([
    ['a server that never answers', 'FETCH_TIMEOUT', { url: `ORIGIN/slow` }],
    ['a 404', 'FETCH_ERROR', { url: `ORIGIN/missing` }],
    ['a private address not allowed', 'FETCH_ERROR', { url: 'http://10.1.2.3/spec.yaml' }],
    ['invalid YAML', 'PARSE_ERROR', { url: `ORIGIN/broken.yaml` }],
    ['YAML that is not OpenAPI', 'PARSE_ERROR', { text: 'just: a map\n' }],
    ['OpenAPI with an error', 'PARSE_ERROR', { text: 'openapi: 3.0.3\ninfo: { title: X }\npaths: {}\n' }],
  ])('reports %s as %s', async (_name, code, source) => {
    const slug = `bad-${code.toLowerCase().replace('_', '-')}-${Math.random().toString(36).slice(2, 8)}`;
    const body = { source: 'url' in source ? { url: source.url.replace('ORIGIN', origin) } : source };
    expect((await t.rest('PUT', `${specs()}/${slug}`, { token: acme.admin.token, body })).status).toBe(201);
    const done = await processed(slug);
    expect(done).toMatchObject({ processingState: 'complete', lastProcessErrorCode: code, lastProcessedAt: expect.any(String) });
    expect(done.lastVersion).toBeUndefined();
  });
});

describe('the API', () => {
  it('refuses bad input with a clear 400 and writes nothing', async () => {
    const before = (await t.db.select().from(openapiSpecs)).length;
    for (const [body, message] of [
      [{ slug: 'Bad Slug', source: { text: 'x' } }, /slug must be lowercase/],
      [{ slug: 'ok', source: {} }, /either url or text/],
      [{ slug: 'ok', source: { url: 'x', text: 'y' } }, /url must be an absolute URL|either url or text/],
      [{ slug: 'ok' }, /source is required/],
    ] as const) {
      const res = await t.rest('POST', specs(), { token: acme.admin.token, body });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error.message).toMatch(message);
    }
    expect((await t.rest('PATCH', `${specs()}/pets`, { token: acme.admin.token, body: { visibility: 'everyone' } })).status).toBe(400);
    expect((await t.db.select().from(openapiSpecs)).length).toBe(before);
  });

  it('lets readers read, only the create role write, and hides it from guests and other organizations', async () => {
    expect((await t.rest('GET', `${specs()}/pets`, { token: reader.token })).body.permissions).toEqual({ view: true, edit: false });
    expect((await t.rest('PATCH', `${specs()}/pets`, { token: reader.token, body: { visibility: 'public' } })).status).toBe(403);
    for (const token of [guest.token, other.admin.token]) {
      const hidden = await t.rest('GET', `${specs()}/pets`, { token });
      const missing = await t.rest('GET', `${specs('doesNotExist00000000')}/pets`, { token });
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual(missing.body);
    }
  });

  it('publishes a public spec at its published URL', async () => {
    const patched = await t.rest('PATCH', `${specs()}/pets`, { token: acme.admin.token, body: { visibility: 'public' } });
    expect(patched.body.visibility).toBe('public');
    const published = await t.app.fetch(new Request(patched.body.urls.published));
    expect(published.status).toBe(200);
    expect(await published.text()).toBe(PETSTORE);
    await t.rest('PATCH', `${specs()}/pets`, { token: acme.admin.token, body: { visibility: 'private' } });
    expect((await t.app.fetch(new Request(patched.body.urls.published))).status).toBe(404);
  });

  it('works with the official client, all six operations', async () => {
    const served = await t.serve();
    try {
      const api = new GitBookAPI({ endpoint: served.url, authToken: acme.admin.token });
      const { data: created } = await api.orgs.createOpenApiSpec(acme.organizationId, { slug: 'client', source: { text: PETSTORE } });
      validateResponse('POST', specs(), 201, created);
      const { data: list } = await api.orgs.listOpenApiSpecs(acme.organizationId);
      validateResponse('GET', specs(), 200, list);
      expect(list.items.map((s) => s.slug)).toContain('client');
      expect((await api.orgs.getOpenApiSpecBySlug(acme.organizationId, 'client')).data.id).toBe(created.id);
      expect((await api.orgs.createOrUpdateOpenApiSpecBySlug(acme.organizationId, 'client', { source: { text: PETSTORE } })).status).toBe(200);
      expect((await api.orgs.updateOpenApiSpecBySlug(acme.organizationId, 'client', { visibility: 'public' as never })).data.visibility).toBe('public');
      expect((await api.orgs.deleteOpenApiSpecBySlug(acme.organizationId, 'client')).status).toBe(204);
      await expect(api.orgs.getOpenApiSpecBySlug(acme.organizationId, 'client')).rejects.toMatchObject({ code: 404 });
    } finally {
      await served.stop();
    }
  });

  it('works with the official CLI, from a file and from a URL', async () => {
    const served = await t.serve();
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_CONFIG_HOME: home };
    delete env.NODE_OPTIONS;
    const gitbook = (...args: string[]) => exec(process.execPath, ['node_modules/@gitbook/cli/dist/cli.js', ...args], { env, timeout: 60_000 });
    try {
      await gitbook('auth', '--endpoint', served.url, '--token', acme.admin.token);
      expect((await gitbook('whoami')).stdout).toContain(`ID: ${acme.admin.userId}`);
      const file = join(home, 'pets.yaml');
      writeFileSync(file, PETSTORE);
      await gitbook('openapi', 'publish', '--spec', 'cli-file', '--organization', acme.organizationId, file);
      expect((await processed('cli-file')).lastVersion).toEqual(expect.any(String));
      await gitbook('openapi', 'publish', '--spec', 'cli-url', '--organization', acme.organizationId, `${origin}/petstore.yaml`);
      expect(await processed('cli-url')).toMatchObject({ sourceURL: `${origin}/petstore.yaml`, lastVersion: expect.any(String) });
    } finally {
      await served.stop();
    }
  });
});

describe('without a job queue', () => {
  it('answers 503 before writing anything, so no spec is left pending forever', async () => {
    const bare = await startTestApp();
    try {
      const org = await buildOrganization(bare.db, 'Queueless');
      const path = `/v1/orgs/${org.organizationId}/openapi`;
      const created = await bare.rest('POST', path, { token: org.admin.token, body: { slug: 'pets', source: { text: PETSTORE } } });
      expect(created.status).toBe(503);
      expect(created.body.error.message).toMatch(/job queue is not running/);
      expect((await bare.rest('PUT', `${path}/pets`, { token: org.admin.token, body: { source: { text: PETSTORE } } })).status).toBe(503);
      expect((await bare.rest('GET', path, { token: org.admin.token })).body.items).toEqual([]);
    } finally {
      await bare.close();
    }
  });
});
