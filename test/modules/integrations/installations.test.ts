import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../support/clients';
import { buildOrganization, type OrgFixture } from '../../support/factories';

/** Installations, space installations, events and installation tokens over /v1 (every answer checked against the spec). */
let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;

const publish = (name: string, org: string, scopes: string[]) =>
  t.rest('POST', `/v1/integrations/${name}`, { token: acme.admin.token, body: { organization: org, title: 'Test one', description: '', scopes, script: 'export default { fetch() { return new Response("ok"); } };', visibility: 'private' } });

beforeAll(async () => {
  t = await startTestApp();
  acme = await buildOrganization(t.db, 'Acme');
  other = await buildOrganization(t.db, 'Other');
});
afterAll(async () => {
  await t?.close();
});

describe('installations', () => {
  it('installs on the owner, gives a space, records events; tokens act only within scopes and spaces', async () => {
    expect((await publish('reader-one', acme.organizationId, ['space:content:read'])).status).toBe(200);
    const mine = await t.rest('POST', `/v1/orgs/${acme.organizationId}/spaces`, { token: acme.admin.token, body: { title: 'Given' } });
    const notGiven = await t.rest('POST', `/v1/orgs/${acme.organizationId}/spaces`, { token: acme.admin.token, body: { title: 'Kept' } });
    const installed = await t.rest('POST', '/v1/integrations/reader-one/installations', { token: acme.admin.token, body: { organization: acme.organizationId } });
    expect(installed.status).toBe(201);
    const id = installed.body.id;
    const onSpace = await t.rest('POST', `/v1/integrations/reader-one/installations/${id}/spaces`, { token: acme.admin.token, body: { space: mine.body.id } });
    expect(onSpace.status).toBe(201);

    const events = await t.rest('GET', '/v1/integrations/reader-one/events', { token: acme.admin.token });
    expect(events.body.items.map((e: { payload: { type: string } }) => e.payload.type).sort()).toEqual(['installation_setup', 'space_installation_setup']);
    const one = await t.rest('GET', `/v1/integrations/reader-one/events/${events.body.items[0].id}`, { token: acme.admin.token });
    expect(one.status).toBe(200);
    expect(one.body.trace).toEqual({ logs: [] });

    const token = (await t.rest('POST', `/v1/integrations/reader-one/installations/${id}/tokens`, { token: acme.admin.token })).body.token as string;
    expect((await t.rest('GET', `/v1/spaces/${mine.body.id}`, { token })).status).toBe(200);
    expect((await t.rest('GET', `/v1/spaces/${notGiven.body.id}`, { token })).status).toBe(404);
    // Read scope only: a write to the given space is refused.
    const write = await t.rest('PATCH', `/v1/spaces/${mine.body.id}`, { token, body: { title: 'Changed' } });
    expect([403, 404]).toContain(write.status);
    expect((await t.rest('GET', `/v1/spaces/${mine.body.id}`, { token: acme.admin.token })).body.title).toBe('Given');

    const spaces = await t.rest('GET', '/v1/integrations/reader-one/spaces', { token: acme.admin.token });
    expect(spaces.body.items.map((s: { space: string }) => s.space)).toEqual([mine.body.id]);
    expect((await t.rest('GET', '/v1/integrations/reader-one/sites', { token: acme.admin.token })).body.items).toEqual([]);
  });

  it("another organization cannot install a private integration: it answers like a missing one", async () => {
    const res = await t.rest('POST', '/v1/integrations/reader-one/installations', { token: other.admin.token, body: { organization: other.organizationId } });
    const missing = await t.rest('POST', '/v1/integrations/nothing-here/installations', { token: other.admin.token, body: { organization: other.organizationId } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(missing.body);
  });

  it('bad input is a 400 and nothing is written', async () => {
    const bad = await t.rest('POST', '/v1/integrations/bad-one', { token: acme.admin.token, body: { organization: acme.organizationId, title: 'Bad', description: '', scopes: ['space:everything'], script: 'x' } });
    expect(bad.status).toBe(400);
    expect((await t.rest('GET', '/v1/integrations/bad-one', { token: acme.admin.token })).status).toBe(404);
    const dev = await t.rest('PUT', '/v1/integrations/reader-one/dev', { token: acme.admin.token, body: { tunnelUrl: 'http://127.0.0.1:9/' } });
    expect(dev.status).toBe(400);
    expect((await t.rest('PUT', '/v1/integrations/reader-one/dev', { token: acme.admin.token, body: { tunnelUrl: 'https://93.184.215.14/' } })).status).toBe(204);
    expect((await t.rest('DELETE', '/v1/integrations/reader-one/dev', { token: acme.admin.token })).status).toBe(204);
  });
});
