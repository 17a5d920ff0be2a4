import LZString from 'lz-string';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/clients';
import { gid, MISSING } from '../../support/doors';
import type { Actor, OrgFixture } from '../../support/factories';
import { mutations } from '../../support/graphql';
import { scenario } from '../../support/scenario';

/**
 * Publishing, dev mode, unpublishing and rendering through GraphQL, each against its /v1 twin on
 * the same integration: `POST`/`DELETE /v1/integrations/{name}`, `PUT`/`DELETE .../dev` and
 * `GET .../render`.
 */
let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;
let people: Record<'reader', Actor>;
let n = 0;

// Answers every event, render included, with the same ContentKit block.
const SCRIPT = `export default { async fetch() {
  return new Response(JSON.stringify({ type: 'element', element: { type: 'block', children: [{ type: 'markdown', content: 'Hello from the script' }] }, state: {}, props: {} }), { headers: { 'content-type': 'application/json' } });
} };`;
const TUNNEL = 'https://93.184.215.14/tunnel';

async function publish(visibility: 'public' | 'private' = 'private'): Promise<{ name: string; id: string }> {
  const name = `twin-${++n}`;
  const res = await t.rest('POST', `/v1/integrations/${name}`, { token: acme.admin.token, body: { organization: acme.organizationId, title: `Twin ${n}`, description: '', scopes: ['space:content:read'], script: SCRIPT, visibility } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const found = await t.graphql('query ($name: String!) { integration(name: $name) { id } }', { name }, acme.admin.token);
  return { name, id: found.body.data.integration.id };
}

const DEV = 'query ($id: ID!) { node(id: $id) { ... on Integration { devMode { tunnelUrl all } } } }';
const devMode = async (id: string, token = acme.admin.token) => (await t.graphql(DEV, { id }, token)).body.data.node?.devMode;

beforeAll(async () => {
  ({ t, acme, other, people } = await scenario({ reader: ['read', 'Rita Read'] }));
});
afterAll(() => t?.close());

const { succeed, refused, userError } = mutations(() => t, { token: () => acme.admin.token });

describe('integrationDevModeSet and integrationDevModeDisable', () => {
  it('turns dev mode on and off; GraphQL shows what either door set, only to its publishers', async () => {
    const app = await publish('public');
    expect(await devMode(app.id)).toBeNull();
    const on = await succeed('integrationDevModeSet', { integrationId: app.id, tunnelUrl: TUNNEL, all: true }, 'integration { name devMode { tunnelUrl all } }');
    expect(on.integration).toEqual({ name: app.name, devMode: { tunnelUrl: TUNNEL, all: true } });
    expect(await devMode(app.id, people.reader.token)).toBeNull();

    expect((await t.rest('DELETE', `/v1/integrations/${app.name}/dev`, { token: acme.admin.token })).status).toBe(204);
    expect(await devMode(app.id)).toBeNull();
    expect((await t.rest('PUT', `/v1/integrations/${app.name}/dev`, { token: acme.admin.token, body: { tunnelUrl: `${TUNNEL}/rest` } })).status).toBe(204);
    expect(await devMode(app.id)).toEqual({ tunnelUrl: `${TUNNEL}/rest`, all: false });

    const off = await succeed('integrationDevModeDisable', { integrationId: app.id }, 'integration { devMode { tunnelUrl } }');
    expect(off.integration).toEqual({ devMode: null });
  });

  it('refuses a tunnel on a private address as REST does, naming tunnelUrl; nothing changes', async () => {
    const app = await publish();
    const rest = await t.rest('PUT', `/v1/integrations/${app.name}/dev`, { token: acme.admin.token, body: { tunnelUrl: 'http://127.0.0.1:9/' } });
    expect(rest.status).toBe(400);
    await userError('integrationDevModeSet', { integrationId: app.id, tunnelUrl: 'http://127.0.0.1:9/' }, 'VALIDATION_FAILED', ['tunnelUrl']);
    await userError('integrationDevModeSet', { integrationId: app.id, tunnelUrl: '' }, 'VALIDATION_FAILED', ['tunnelUrl']);
    expect(await devMode(app.id)).toBeNull();
  });

  it("refuses a member who is no admin (FORBIDDEN, REST's 403) and answers another organization like a missing integration", async () => {
    const app = await publish();
    expect((await t.rest('PUT', `/v1/integrations/${app.name}/dev`, { token: people.reader.token, body: { tunnelUrl: TUNNEL } })).status).toBe(403);
    await refused('integrationDevModeSet', { integrationId: app.id, tunnelUrl: TUNNEL }, people.reader.token, 'FORBIDDEN');
    await refused('integrationDevModeDisable', { integrationId: app.id }, people.reader.token, 'FORBIDDEN');
    const foreign = await refused('integrationDevModeSet', { integrationId: app.id, tunnelUrl: TUNNEL }, other.admin.token, 'NOT_FOUND');
    const missing = await refused('integrationDevModeSet', { integrationId: gid('Integration', MISSING), tunnelUrl: TUNNEL }, other.admin.token, 'NOT_FOUND');
    expect(foreign.errors[0].message).toBe(missing.errors[0].message);
    expect(await devMode(app.id)).toBeNull();
    // Turning it off is a delete (REST: DELETE .../dev, 204 for what the caller cannot see): it succeeds and changes nothing.
    await succeed('integrationDevModeSet', { integrationId: app.id, tunnelUrl: TUNNEL }, 'integration { id }');
    for (const integrationId of [app.id, gid('Integration', MISSING)]) {
      expect((await succeed('integrationDevModeDisable', { integrationId }, 'integration { id }', other.admin.token)).integration).toBeNull();
    }
    expect(await devMode(app.id)).toMatchObject({ tunnelUrl: TUNNEL });
  });
});

describe('integrationUnpublish', () => {
  it('unpublishes: REST no longer finds it; a reader is refused and it stays', async () => {
    const app = await publish();
    await refused('integrationUnpublish', { integrationId: app.id }, people.reader.token, 'FORBIDDEN');
    expect((await t.rest('GET', `/v1/integrations/${app.name}`, { token: acme.admin.token })).status).toBe(200);
    const done = await succeed('integrationUnpublish', { integrationId: app.id }, 'deletedIntegrationId');
    expect(done.deletedIntegrationId).toBe(app.id);
    expect((await t.rest('GET', `/v1/integrations/${app.name}`, { token: acme.admin.token })).status).toBe(404);
    // Again: it is gone already, which is what was asked (REST answers 204).
    expect((await succeed('integrationUnpublish', { integrationId: app.id }, 'deletedIntegrationId')).deletedIntegrationId).toBe(app.id);
  });
});

describe('integrationRender', () => {
  let app: { name: string; id: string };
  let spaceId: string;
  let bareSpaceId: string;
  const request = () => ({ componentId: 'note', props: { text: 'hi' }, context: { type: 'document', spaceId, editable: false, theme: 'light' } });
  const restRender = (value: unknown, token: string) => t.rest('GET', `/v1/integrations/${app.name}/render?request=${LZString.compressToEncodedURIComponent(JSON.stringify(value))}`, { token });

  beforeAll(async () => {
    app = await publish();
    spaceId = (await t.rest('POST', `/v1/orgs/${acme.organizationId}/spaces`, { token: acme.admin.token, body: { title: 'Given' } })).body.id;
    bareSpaceId = (await t.rest('POST', `/v1/orgs/${acme.organizationId}/spaces`, { token: acme.admin.token, body: { title: 'Not given' } })).body.id;
    const installation = (await t.rest('POST', `/v1/integrations/${app.name}/installations`, { token: acme.admin.token, body: { organization: acme.organizationId } })).body.id;
    expect((await t.rest('POST', `/v1/integrations/${app.name}/installations/${installation}/spaces`, { token: acme.admin.token, body: { space: spaceId } })).status).toBe(201);
  });

  it("gives a reader of the space the script's ContentKit answer, the same as REST, and records the event", async () => {
    const rest = await restRender(request(), people.reader.token);
    expect(rest.status, JSON.stringify(rest.body)).toBe(200);
    const { output } = await succeed('integrationRender', { integrationId: app.id, request: request() }, 'output', people.reader.token);
    expect(output).toEqual(rest.body);
    expect(output).toMatchObject({ type: 'element', element: { type: 'block', children: [{ type: 'markdown', content: 'Hello from the script' }] } });
    const events = await t.rest('GET', `/v1/integrations/${app.name}/events?limit=100`, { token: acme.admin.token });
    expect(events.body.items.filter((e: { payload: { type: string } }) => e.payload.type === 'ui_render')).toHaveLength(2);
  });

  it('refuses what REST refuses: a request that is no render request, a space it is not installed on, a space or integration the caller cannot see', async () => {
    expect((await t.rest('GET', `/v1/integrations/${app.name}/render?request=%25%25`, { token: acme.admin.token })).status).toBe(400);
    await userError('integrationRender', { integrationId: app.id, request: { props: {} } }, 'VALIDATION_FAILED', ['request']);

    const bare = { ...request(), context: { ...request().context, spaceId: bareSpaceId } };
    expect((await restRender(bare, acme.admin.token)).status).toBe(400);
    await userError('integrationRender', { integrationId: app.id, request: bare }, 'VALIDATION_FAILED', ['request', 'context']);

    // The private integration of Acme is missing for Other, like one that does not exist.
    expect((await restRender(request(), other.admin.token)).status).toBe(404);
    const foreign = await refused('integrationRender', { integrationId: app.id, request: request() }, other.admin.token, 'NOT_FOUND');
    const missing = await refused('integrationRender', { integrationId: gid('Integration', MISSING), request: request() }, other.admin.token, 'NOT_FOUND');
    expect(foreign.errors[0].message).toBe(missing.errors[0].message);
  });
});

describe('integrationPublish', () => {
  const INTEGRATION = `query ($name: String!) { integration(name: $name) { id name title description version visibility scopes categories } }`;
  const input = (name: string, owner: OrgFixture = acme) => ({ name, organizationId: gid('Organization', owner.organizationId), title: 'Via GraphQL', description: 'Published through GraphQL', scopes: ['space:content:read'], script: SCRIPT, categories: ['CONTENT'], visibility: 'UNLISTED' });

  it('publishes a new integration and a new version; REST reads what GraphQL published', async () => {
    const first = await succeed('integrationPublish', input('gql-published'), 'integration { name version visibility }');
    expect(first.integration).toEqual({ name: 'gql-published', version: 1, visibility: 'UNLISTED' });
    const rest = await t.rest('GET', '/v1/integrations/gql-published', { token: acme.admin.token });
    expect(rest.body).toMatchObject({ name: 'gql-published', title: 'Via GraphQL', description: 'Published through GraphQL', visibility: 'unlisted', scopes: ['space:content:read'], categories: ['content'] });
    const second = await succeed('integrationPublish', { ...input('gql-published'), title: 'Second take' }, 'integration { version title }');
    expect(second.integration).toEqual({ version: 2, title: 'Second take' });
    expect((await t.rest('GET', '/v1/integrations/gql-published', { token: acme.admin.token })).body.title).toBe('Second take');
    const read = await t.graphql(INTEGRATION, { name: 'gql-published' }, acme.admin.token);
    expect(read.body.data.integration).toMatchObject({ version: 2, title: 'Second take' });
  });

  it('refuses what REST refuses, as user errors naming the input field; nothing is published', async () => {
    expect((await t.rest('POST', '/v1/integrations/gql-bad', { token: acme.admin.token, body: { organization: acme.organizationId, title: 'Bad', description: '', scopes: ['space:everything'], script: SCRIPT } })).status).toBe(400);
    await userError('integrationPublish', { ...input('gql-bad'), scopes: ['space:everything'] }, 'VALIDATION_FAILED', ['scopes', '0']);
    await userError('integrationPublish', { ...input('gql-bad'), title: 'x' }, 'VALIDATION_FAILED', ['title']);
    expect((await t.rest('GET', '/v1/integrations/gql-bad', { token: acme.admin.token })).status).toBe(404);
  });

  it("refuses a reader (FORBIDDEN) and another organization's name (CONFLICT), as REST does", async () => {
    await refused('integrationPublish', input('gql-reader'), people.reader.token, 'FORBIDDEN');
    expect((await t.rest('POST', '/v1/integrations/gql-published', { token: other.admin.token, body: { organization: other.organizationId, title: 'Taken', description: '', scopes: [], script: SCRIPT } })).status).toBe(409);
    await userError('integrationPublish', input('gql-published', other), 'CONFLICT', null, { token: other.admin.token });
    // Publishing for an organization the caller cannot see answers like one that does not exist: NOT_FOUND, REST's 404.
    const foreign = await refused('integrationPublish', input('gql-sneaky'), other.admin.token, 'NOT_FOUND');
    expect(foreign.errors[0].message).toContain(acme.organizationId);
  });
});
