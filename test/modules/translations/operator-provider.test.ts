import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../support/clients';
import { contentBench, type ContentBench } from '../../support/change-requests';
import { buildOrganization, type OrgFixture } from '../../support/factories';
import { startTranslateServer, type TranslateServer } from '../../support/translate-server';
import { waitForRun } from './support';

/*
 * QUIRE_TRANSLATE_URL is the operator's own setting: a LibreTranslate on 127.0.0.1 works with the
 * default settings (no QUIRE_FETCH_ALLOW_HOSTS). URLs users give stay behind the SSRF guard, the
 * provider's own address included.
 */
let t: TestApp;
let acme: OrgFixture;
let engine: TranslateServer;
let b: ContentBench;

beforeAll(async () => {
  engine = await startTranslateServer();
  t = await startTestApp({}, { jobs: true });
  t.config.translate = { url: engine.url };
  expect(t.config.fetchAllowHosts ?? []).toEqual([]);
  acme = await buildOrganization(t.db, 'Acme');
  b = await contentBench(() => t, () => acme, [{ title: 'Intro', markdown: 'Hello world.' }]);
});
afterAll(async () => {
  await t?.close();
  await engine?.stop();
});

describe('a translation provider on loopback, configured by the operator', () => {
  it('translates with the default settings', async () => {
    const token = acme.admin.token;
    const created = await t.rest('POST', `/v1/orgs/${acme.organizationId}/translations`, { token, body: { language: 'fr', source: { space: b.spaceId, language: 'en' } } });
    expect(created.status).toBe(201);
    expect((await t.rest('POST', `/v1/orgs/${acme.organizationId}/translations/${created.body.id}/run`, { token })).status).toBe(204);
    const node = await waitForRun(t, token, created.body.id);
    expect(node, JSON.stringify(node)).toMatchObject({ status: 'COMPLETED' });
    expect(engine.texts()).toContain('Hello world.');
  });

  it('a URL a user gives to the same loopback server is still refused (content import)', async () => {
    const before = engine.requests.length;
    for (const url of [`${engine.url}/translate`, `${engine.url}/doc.md`]) {
      const res = await t.rest('POST', `/v1/spaces/${b.spaceId}/content/import`, { token: acme.admin.token, body: { url, source: 'markdown' } });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe('url: 127.0.0.1 is a loopback address; fetching it is not allowed. The server\'s operator can allow this host with QUIRE_FETCH_ALLOW_HOSTS=127.0.0.1');
    }
    expect(engine.requests.length).toBe(before);
  });

  it('a URL a user gives to the same loopback server is still refused (OpenAPI spec fetch)', async () => {
    const token = acme.admin.token;
    const created = await t.rest('POST', `/v1/orgs/${acme.organizationId}/openapi`, { token, body: { slug: 'local', source: { url: `${engine.url}/translate` } } });
    expect(created.status).toBe(201);
    const deadline = Date.now() + 15_000;
    let spec = created.body;
    while (spec.lastProcessedAt === undefined && Date.now() < deadline) spec = (await t.rest('GET', `/v1/orgs/${acme.organizationId}/openapi/local`, { token })).body;
    expect(spec).toMatchObject({ processingState: 'complete', lastProcessErrorCode: 'FETCH_ERROR' });
    expect(spec.lastVersion).toBeUndefined();
  });
});
