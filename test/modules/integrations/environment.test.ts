import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeIntegrationRuntime } from '../../../src/runtime/deliver';
import { startTestApp, type TestApp } from '../../support/clients';
import { gid } from '../../support/doors';
import { buildOrganization, type OrgFixture } from '../../support/factories';
import { validateSchema } from '../../support/openapi';
import { FIXTURES, gitbookCli, type Cli } from './support';

/**
 * What a real integration (written with @gitbook/runtime, published with the official CLI) is
 * handed: the spec's `IntegrationEnvironment`, its objects as REST shows them, on every public
 * endpoint Quire advertises; and an event it has no handler for is not a failure.
 */
let t: TestApp;
let server: { url: string; stop(): Promise<void> };
let cli: Cli;
let acme: OrgFixture;
let other: OrgFixture;
let spaceId: string;
let hiddenSpaceId: string;
let siteId: string;
let installationId: string;

const NAME = 'quire-env';
const integrationPath = `/v1/integrations/${NAME}`;

beforeAll(async () => {
  t = await startTestApp({}, { jobs: true });
  acme = await buildOrganization(t.db, 'Acme');
  other = await buildOrganization(t.db, 'Other');
  server = await t.serve();
  t.config.publicUrl = server.url;
  cli = await gitbookCli();
  await cli.run(['auth', '--endpoint', server.url, '--token', acme.admin.token]);
  await cli.run(['publish', '--organization', acme.organizationId], { cwd: resolve(FIXTURES, NAME) });
  const space = (title: string) => t.rest('POST', `/v1/orgs/${acme.organizationId}/spaces`, { token: acme.admin.token, body: { title } });
  spaceId = (await space('Given')).body.id;
  hiddenSpaceId = (await space('Not given')).body.id;
  siteId = (await t.rest('POST', `/v1/orgs/${acme.organizationId}/sites`, { token: acme.admin.token, body: { title: 'Docs', spaces: [spaceId] } })).body.id;
  const installed = await t.rest('POST', `${integrationPath}/installations`, { token: acme.admin.token, body: { organization: acme.organizationId } });
  expect(installed.status).toBe(201);
  installationId = installed.body.id;
  expect((await t.rest('POST', `${integrationPath}/installations/${installationId}/spaces`, { token: acme.admin.token, body: { space: spaceId } })).status).toBe(201);
  expect((await t.rest('POST', `${integrationPath}/installations/${installationId}/sites`, { token: acme.admin.token, body: { siteId } })).status).toBe(201);
}, 120_000);
afterAll(async () => {
  await cli?.dispose();
  await server?.stop();
  await t?.close();
  await closeIntegrationRuntime();
});

type Environment = {
  apiTokens: { integration: string; installation?: string };
  integration: { urls: Record<string, string> };
  installation?: { urls: Record<string, string> };
  spaceInstallation?: { urls: Record<string, string> };
  siteInstallation?: { urls: Record<string, string> };
};

/** Calls a public endpoint, as a webhook would (no token), and reads what the script saw. */
async function seen(url: string): Promise<{ path: string; environment: Environment }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"hello":1}' });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as { path: string; environment: Environment };
}

const asRest = async (path: string, token: string) => {
  const res = await t.rest('GET', path, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

describe("the environment a script is handed", () => {
  it("is the spec's IntegrationEnvironment, with the integration as REST shows it to the integration's token", async () => {
    const { path, environment } = await seen(`${server.url}${integrationPath}/integration/hook`);
    expect(path).toBe(`${integrationPath}/integration/hook`);
    validateSchema('IntegrationEnvironment', environment);
    expect(environment.integration).toEqual(await asRest(integrationPath, environment.apiTokens.integration));
    expect(environment.integration).toMatchObject({
      object: 'integration',
      name: NAME,
      owner: { id: acme.organizationId },
      externalLinks: [{ url: 'https://example.com/quire-env', label: 'Home' }],
      urls: { publicEndpoint: `${server.url}${integrationPath}/integration`, publicContentEndpoint: `${server.url}${integrationPath}/integration`, icon: expect.stringContaining('/') },
    });
    expect(environment.installation).toBeUndefined();
  });

  it('holds the installation, with its urls, on the installation endpoint it advertises', async () => {
    const first = await seen(`${server.url}${integrationPath}/installations/${installationId}/integration`);
    const installation = first.environment.installation!;
    validateSchema('IntegrationEnvironment', first.environment);
    expect(installation).toEqual(await asRest(`${integrationPath}/installations/${installationId}`, acme.admin.token));
    expect(installation.urls.publicContentEndpoint).toBe(installation.urls.publicEndpoint);
    const again = await seen(`${installation.urls.publicEndpoint}/oauth`);
    expect(again.path).toBe(`${integrationPath}/installations/${installationId}/integration/oauth`);
    expect(again.environment.spaceInstallation).toBeUndefined();
  });

  it('holds the space installation on the space endpoint it advertises, which answers', async () => {
    const rest = await asRest(`${integrationPath}/installations/${installationId}/spaces/${spaceId}`, acme.admin.token);
    const { path, environment } = await seen(`${rest.urls.publicEndpoint}/webhook`);
    expect(path).toBe(`${integrationPath}/installations/${installationId}/spaces/${spaceId}/integration/webhook`);
    validateSchema('IntegrationEnvironment', environment);
    expect(environment.spaceInstallation).toEqual({ ...rest, space: spaceId });
    expect(environment.spaceInstallation).toMatchObject({ integration: NAME, installation: installationId, urls: { publicContentEndpoint: rest.urls.publicEndpoint } });
    expect(environment.installation!.urls.location).toBe(`${server.url}${integrationPath}/installations/${installationId}`);
    expect(environment.siteInstallation).toBeUndefined();
  });

  it('holds the site installation on the site endpoint it advertises, which answers', async () => {
    const rest = await asRest(`${integrationPath}/installations/${installationId}/sites/${siteId}`, acme.admin.token);
    const { path, environment } = await seen(rest.urls.publicEndpoint);
    expect(path).toBe(`${integrationPath}/installations/${installationId}/sites/${siteId}/integration`);
    validateSchema('IntegrationEnvironment', environment);
    expect(environment.siteInstallation).toEqual({ ...rest, site: siteId });
    expect(environment.siteInstallation!.urls.publicContentEndpoint).toBe(rest.urls.publicEndpoint);
  });

  it('answers 404 on the endpoint of a space or site the installation was not given, or of another organization', async () => {
    const base = `${server.url}${integrationPath}/installations/${installationId}`;
    const otherSpace = (await t.rest('POST', `/v1/orgs/${other.organizationId}/spaces`, { token: other.admin.token, body: { title: 'Theirs' } })).body.id;
    for (const path of [`spaces/${hiddenSpaceId}`, `spaces/${otherSpace}`, 'spaces/nope', 'sites/nope', `sites/${spaceId}`]) {
      const res = await fetch(`${base}/${path}/integration`);
      expect(res.status, path).toBe(404);
      expect((await res.json()).error.code).toBe(404);
    }
    expect((await fetch(`${server.url}${integrationPath}/installations/nope/spaces/${spaceId}/integration`)).status).toBe(404);
  });
});

type GraphqlEvent = { restId: string; type: string; status: string; attempts: number };

/** The integration's events through GraphQL, polled until one matches. */
async function eventWhere(match: (e: GraphqlEvent) => boolean, timeoutMs = 20_000): Promise<GraphqlEvent> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await t.graphql('query ($name: String!) { integration(name: $name) { events(first: 50) { edges { node { restId type status attempts } } } } }', { name: NAME }, acme.admin.token);
    const events = (res.body.data.integration.events.edges as { node: GraphqlEvent }[]).map((e) => e.node);
    const found = events.find(match);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no such event: ${JSON.stringify(events)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('an event the integration has no handler for', () => {
  it('is delivered once and shows as not handled, not as failed', async () => {
    const setup = await eventWhere((e) => e.type === 'installation_setup' && e.status !== 'PENDING');
    expect(setup).toMatchObject({ status: 'SUCCESS', attempts: 1 });

    const edit = await t.graphql(
      'mutation ($input: PageCreateInput!) { pageCreate(input: $input) { userErrors { message } } }',
      { input: { spaceId: gid('Space', spaceId), title: 'Unhandled', markdown: 'Nobody listens' } },
      acme.admin.token,
    );
    expect(edit.body.data.pageCreate.userErrors).toEqual([]);
    const event = await eventWhere((e) => e.type === 'space_content_updated' && e.status !== 'PENDING');
    expect(event).toMatchObject({ status: 'NOT_HANDLED', attempts: 1 });

    const rest = await t.rest('GET', `${integrationPath}/events/${event.restId}`, { token: acme.admin.token });
    expect(rest.body.event.status).toBe('success');
    expect(rest.body.trace.logs.map((l: { message: string }) => l.message)).toContain('not handled: the integration has no handler for "space_content_updated" events');
    // The script's own log says why; Quire adds no failure of its own.
    expect(rest.body.trace.logs.filter((l: { message: string }) => /answered 406|delivery failed/.test(l.message))).toEqual([]);
  });
});
