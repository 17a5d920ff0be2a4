import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../support/clients';
import { buildOrganization, type OrgFixture } from '../../support/factories';
import { bundleFixture } from '../integrations-runtime/support';

/*
 * An integration's publish carries its script, icon and preview images in one JSON body: it may be
 * as large as the publish schema allows (a 250 KB icon, three 1 MB previews, a 10 MB script),
 * while every other route keeps the server's 1 MB limit.
 */
let t: TestApp;
let acme: OrgFixture;
let script: string;

beforeAll(async () => {
  t = await startTestApp();
  acme = await buildOrganization(t.db, 'Acme');
  const bundle = await bundleFixture('quire-hello', 'development');
  // A real bundle, grown to the size of one with its dependencies and source map inlined.
  script = bundle + `\n//# padding ${'x'.repeat(2_500_000 - bundle.length)}\n`;
});
afterAll(async () => {
  await t?.close();
});

const base64 = (bytes: number) => randomBytes(bytes).toString('base64');

function manifest(name: string, overrides: Record<string, unknown> = {}) {
  return {
    organization: acme.organizationId,
    title: `Big ${name}`,
    description: 'Screenshots and a real bundle',
    scopes: ['space:content:read'],
    icon: base64(200 * 1024),
    previewImages: [base64(700 * 1024), base64(700 * 1024), base64(700 * 1024)],
    script,
    ...overrides,
  };
}

describe('the size of a publish', () => {
  it('publishes about 5 MB (a 2.5 MB script, an icon and three previews), and serves what it stored', async () => {
    const body = manifest('big-one');
    expect(JSON.stringify(body).length).toBeGreaterThan(5_000_000);
    const res = await t.rest('POST', '/v1/integrations/big-one', { token: acme.admin.token, body });
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    const got = await t.rest('GET', '/v1/integrations/big-one', { token: acme.admin.token });
    expect(got.body.previewImages).toHaveLength(3);
    const preview = await t.app.fetch(new Request(got.body.previewImages[1]));
    expect(Buffer.from(await preview.arrayBuffer()).toString('base64')).toBe(body.previewImages[1]);
  });

  it('still answers 413 to a body of the same size on any other route', async () => {
    const res = await t.rest('POST', `/v1/orgs/${acme.organizationId}/spaces`, { token: acme.admin.token, body: { title: 'Huge', description: 'x'.repeat(5_000_000) } });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe(413);
    // The integration's other routes too: only its publish carries a script and images.
    const install = await t.rest('POST', '/v1/integrations/big-one/installations', { token: acme.admin.token, body: manifest('big-one') });
    expect(install.status).toBe(413);
  });

  it('answers 413 past what the publish schema allows, and stores nothing', async () => {
    const res = await t.rest('POST', '/v1/integrations/too-big', { token: acme.admin.token, body: manifest('too-big', { script: 'x'.repeat(17 * 1024 * 1024) }) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: { code: 413, message: expect.stringMatching(/larger than \d+ bytes/) } });
    expect((await t.rest('GET', '/v1/integrations/too-big', { token: acme.admin.token })).status).toBe(404);
  });
});
