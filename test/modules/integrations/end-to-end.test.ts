import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import LZString from 'lz-string';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeIntegrationRuntime, SIGNATURE_HEADER, verifySignature } from '../../../src/runtime/deliver';
import { integrations } from '../../../src/db/schema/integrations';
import { bundleFixture, startLocalServer, type LocalServer, type RecordedRequest } from '../integrations-runtime/support';
import { startTestApp, type TestApp } from '../../support/clients';
import { gid } from '../../support/doors';
import { buildMember, buildOrganization, type Actor, type OrgFixture } from '../../support/factories';
import { FIXTURES, gitbookCli, type Cli } from './support';

/**
 * A real integration, written with the official runtime and published with the official CLI,
 * installed on a space of a server the test starts: a page edit reaches its handler, which reads
 * the space back through `context.api`; render and its public endpoint answer through its script.
 */
let t: TestApp;
let server: { url: string; stop(): Promise<void> };
let cli: Cli;
let acme: OrgFixture;
let other: OrgFixture;
let reader: Actor;
let spaceId: string;
let hiddenSpaceId: string;
let installationId: string;

const NAME = 'quire-notes';

beforeAll(async () => {
  t = await startTestApp({}, { jobs: true });
  acme = await buildOrganization(t.db, 'Acme');
  other = await buildOrganization(t.db, 'Other');
  reader = await buildMember(t.db, acme.organizationId, 'read', 'Rita Reader');
  server = await t.serve();
  // Scripts call back the API at the environment's apiEndpoint: this server, for real.
  t.config.publicUrl = server.url;
  cli = await gitbookCli();
  await cli.run(['auth', '--endpoint', server.url, '--token', acme.admin.token]);
  await cli.run(['publish', '--organization', acme.organizationId], { cwd: resolve(FIXTURES, NAME) });
  spaceId = (await t.rest('POST', `/v1/orgs/${acme.organizationId}/spaces`, { token: acme.admin.token, body: { title: 'Field notes' } })).body.id;
  hiddenSpaceId = (await t.rest('POST', `/v1/orgs/${acme.organizationId}/spaces`, { token: acme.admin.token, body: { title: 'Not given' } })).body.id;
  const installed = await t.rest('POST', `/v1/integrations/${NAME}/installations`, { token: acme.admin.token, body: { organization: acme.organizationId } });
  expect(installed.status).toBe(201);
  installationId = installed.body.id;
  expect((await t.rest('POST', `/v1/integrations/${NAME}/installations/${installationId}/spaces`, { token: acme.admin.token, body: { space: spaceId } })).status).toBe(201);
}, 120_000);
afterAll(async () => {
  await cli?.dispose();
  await server?.stop();
  await t?.close();
  await closeIntegrationRuntime();
});

type EventItem = { id: string; status: string; payload: { type: string; spaceId?: string }; trace?: { logs: { message: string }[] } };

/** Polls the integration's events until one matches, with its trace. */
async function eventWhere(match: (e: EventItem) => boolean, timeoutMs = 15_000): Promise<EventItem> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const list = await t.rest('GET', `/v1/integrations/${NAME}/events?limit=50`, { token: acme.admin.token });
    for (const item of list.body.items as EventItem[]) {
      if (!match(item)) continue;
      const one = await t.rest('GET', `/v1/integrations/${NAME}/events/${item.id}`, { token: acme.admin.token });
      if (item.status === 'success' || one.body.trace.logs.length) return { ...one.body.event, trace: one.body.trace };
    }
    if (Date.now() > deadline) throw new Error(`no such event: ${JSON.stringify(list.body.items.map((e: EventItem) => [e.payload.type, e.status]))}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const render = (request: unknown, token = acme.admin.token) =>
  t.rest('GET', `/v1/integrations/${NAME}/render?request=${LZString.compressToEncodedURIComponent(JSON.stringify(request))}`, { token });

describe('an integration written with @gitbook/runtime, published with the official CLI', () => {
  it("logs the space's title, read through context.api, within seconds of a page edit", async () => {
    const edit = await t.graphql(
      'mutation ($input: PageCreateInput!) { pageCreate(input: $input) { userErrors { message } revision { restId } } }',
      { input: { spaceId: gid('Space', spaceId), title: 'First note', markdown: 'Hello' } },
      acme.admin.token,
    );
    expect(edit.body.data.pageCreate.userErrors).toEqual([]);
    const revision = edit.body.data.pageCreate.revision.restId;
    const event = await eventWhere((e) => e.payload.type === 'space_content_updated' && (e.payload as { revisionId?: string }).revisionId === revision);
    expect(event.status).toBe('success');
    expect(event.trace!.logs.map((l) => l.message)).toContain('space title: Field notes');
  });

  it('sends no event for an edit of a space the installation was not given', async () => {
    await t.graphql('mutation ($input: PageCreateInput!) { pageCreate(input: $input) { userErrors { message } } }', { input: { spaceId: gid('Space', hiddenSpaceId), title: 'Private' } }, acme.admin.token);
    const list = await t.rest('GET', `/v1/integrations/${NAME}/events?limit=100`, { token: acme.admin.token });
    expect(list.body.items.filter((e: EventItem) => e.payload.spaceId === hiddenSpaceId)).toEqual([]);
  });

  it('renders its block for a reader of the space, through the script', async () => {
    const res = await render({ componentId: 'note', props: { text: 'Remember the milk' }, context: { type: 'document', spaceId, editable: false, theme: 'light' } }, reader.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ type: 'element', element: { type: 'block', children: [{ type: 'markdown', content: 'Remember the milk' }] } });
    const event = await eventWhere((e) => e.payload.type === 'ui_render');
    expect(event.status).toBe('success');
  });

  it('refuses a render it cannot do: malformed, not installed there, an unknown component, a space the caller cannot see', async () => {
    const malformed = await t.rest('GET', `/v1/integrations/${NAME}/render?request=%%%`, { token: acme.admin.token });
    expect(malformed.status).toBe(400);
    const notGiven = await render({ componentId: 'note', props: {}, context: { type: 'document', spaceId: hiddenSpaceId, editable: true, theme: 'dark' } });
    expect(notGiven.status).toBe(400);
    expect(notGiven.body.error.message).toMatch(/not installed on the space/);
    const foreign = await render({ componentId: 'note', props: {}, context: { type: 'document', spaceId, editable: true, theme: 'dark' } }, other.admin.token);
    expect(foreign.status).toBe(404);
    const unknown = await render({ componentId: 'nothing', props: {}, context: { type: 'document', spaceId, editable: true, theme: 'dark' } });
    expect(unknown.status).toBe(502);
    expect(unknown.body.error.message).toMatch(/could not render nothing/);
    const failed = await eventWhere((e) => e.payload.type === 'ui_render' && e.status === 'failed');
    expect(failed.trace!.logs.length).toBeGreaterThan(0);
  });

  it('answers requests to its public endpoints, webhooks included, without a token', async () => {
    const hook = await fetch(`${server.url}/v1/integrations/${NAME}/installations/${installationId}/integration/hooks/push?x=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-signature': 'sig-123' },
      body: JSON.stringify({ ref: 'main' }),
    });
    expect(hook.status).toBe(202);
    expect(await hook.json()).toEqual({ method: 'POST', path: `/v1/integrations/${NAME}/installations/${installationId}/integration/hooks/push`, body: '{"ref":"main"}', signature: 'sig-123' });
    const get = await fetch(`${server.url}/v1/integrations/${NAME}/integration`);
    expect(get.status).toBe(202);
    expect((await get.json()).method).toBe('GET');
    const event = await eventWhere((e) => e.payload.type === 'fetch');
    expect(event.trace!.logs.map((l) => l.message).join('\n')).toMatch(/webhook (GET|POST)/);
    expect((await fetch(`${server.url}/v1/integrations/no-such-one/integration`)).status).toBe(404);
    expect((await fetch(`${server.url}/v1/integrations/${NAME}/installations/nope/integration`)).status).toBe(404);
  });
});

describe('events from sites and spaces', () => {
  it('tells the integration of a site it was given, its page views, and a change of space visibility', async () => {
    const sites = `/v1/orgs/${acme.organizationId}/sites`;
    const site = (await t.rest('POST', sites, { token: acme.admin.token, body: { title: 'Notes site', visibility: 'public', spaces: [spaceId] } })).body;
    const given = await t.rest('POST', `/v1/integrations/${NAME}/installations/${installationId}/sites`, { token: acme.admin.token, body: { siteId: site.id } });
    expect(given.status).toBe(201);
    expect(given.body).toMatchObject({ site: site.id, installation: installationId });
    expect((await t.rest('POST', `/v1/integrations/${NAME}/installations/${installationId}/sites`, { token: acme.admin.token, body: { siteId: site.id } })).status).toBe(409);
    const listed = await t.rest('GET', `/v1/integrations/${NAME}/installations/${installationId}/sites`, { token: acme.admin.token });
    expect(listed.body.items.map((s: { site: string }) => s.site)).toEqual([site.id]);
    await eventWhere((e) => e.payload.type === 'site_installation_setup');

    const published = await t.rest('POST', `${sites}/${site.id}/publish`, { token: acme.admin.token });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    const url = (await t.rest('GET', `${sites}/${site.id}`, { token: acme.admin.token })).body.urls.published as string;
    const page = await fetch(`${url.replace(t.config.publicUrl, server.url)}/first-note`, { headers: { 'user-agent': 'quire-test', referer: 'https://example.com/' } });
    expect(page.status).toBe(200);
    const siteView = await eventWhere((e) => e.payload.type === 'site_view');
    expect(siteView.payload).toMatchObject({ siteId: site.id, referrer: 'https://example.com/', visitor: { userAgent: 'quire-test' } });
    const spaceView = await eventWhere((e) => e.payload.type === 'space_view');
    expect(spaceView.payload).toMatchObject({ spaceId, url: expect.stringContaining('/first-note') });

    // A space made in a collection is `in-collection`; moved out of it, it becomes private.
    const collection = await t.rest('POST', `/v1/orgs/${acme.organizationId}/collections`, { token: acme.admin.token, body: { title: 'Shelf' } });
    const shelved = (await t.rest('POST', `/v1/orgs/${acme.organizationId}/spaces`, { token: acme.admin.token, body: { title: 'Shelved', parent: collection.body.id } })).body;
    expect(shelved.visibility).toBe('in-collection');
    expect((await t.rest('POST', `/v1/integrations/${NAME}/installations/${installationId}/spaces`, { token: acme.admin.token, body: { space: shelved.id } })).status).toBe(201);
    const moved = await t.rest('POST', `/v1/spaces/${shelved.id}/move`, { token: acme.admin.token, body: { parent: null } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const visibility = await eventWhere((e) => e.payload.type === 'space_visibility_updated');
    expect(visibility.payload).toMatchObject({ spaceId: shelved.id, previousVisibility: 'in-collection', visibility: 'private' });

    expect((await t.rest('DELETE', `/v1/integrations/${NAME}/installations/${installationId}/sites/${site.id}`, { token: acme.admin.token })).status).toBe(204);
    expect((await t.rest('GET', `/v1/integrations/${NAME}/installations/${installationId}/sites/${site.id}`, { token: acme.admin.token })).status).toBe(404);
    await eventWhere((e) => e.payload.type === 'site_installation_deleted');
  });
});

describe('gitbook tail', () => {
  it("prints the integration's latest events with their logs", async () => {
    const tail = cli.start(['tail'], { cwd: resolve(FIXTURES, NAME) });
    let out = '';
    tail.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    tail.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    try {
      const deadline = Date.now() + 30_000;
      // Its first fetch shows the two newest events, each with its trace.
      while (!/\[(success|failed)\]\[\d{4}-[^\]]+\] \{"/.test(out) || !/\[(info|error)\] \[integrations\]/.test(out)) {
        if (Date.now() > deadline || tail.exitCode !== null) throw new Error(`gitbook tail printed:\n${out}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      tail.kill('SIGINT');
    }
  });
});

describe('in dev mode', () => {
  let receiver: LocalServer;
  let dir: string;
  const verified: boolean[] = [];

  beforeAll(async () => {
    // The receiver stands where `gitbook dev` would: the same integration, run by the official runtime in Node.
    dir = mkdtempSync(join(tmpdir(), 'quire-e2e-tunnel-'));
    const file = join(dir, 'integration.mjs');
    writeFileSync(file, await bundleFixture(NAME, 'production', 'index.ts'));
    const integration = ((await import(pathToFileURL(file).href)) as { default: { fetch(r: Request, env: unknown, ctx: unknown): Promise<Response> } }).default;
    const [row] = await t.db.select({ secret: integrations.signingSecret }).from(integrations);
    receiver = await startLocalServer(async (r: RecordedRequest) => {
      verified.push(verifySignature(r.headers[SIGNATURE_HEADER] as string, r.body, row!.secret));
      const request = new Request(`http://127.0.0.1${r.url}`, { method: r.method, headers: r.headers as Record<string, string>, body: new Uint8Array(r.body) });
      const answer = await integration.fetch(request, {}, { waitUntil: () => undefined, passThroughOnException: () => undefined });
      return { status: answer.status, headers: Object.fromEntries(answer.headers), body: Buffer.from(await answer.arrayBuffer()) };
    });
  });
  afterAll(async () => {
    t.config.fetchAllowHosts = [];
    await receiver?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a tunnel on a loopback address until it is allowed, then renders through it, signed', async () => {
    const dev = (tunnelUrl: string) => t.rest('PUT', `/v1/integrations/${NAME}/dev`, { token: acme.admin.token, body: { tunnelUrl } });
    expect((await dev(receiver.url)).status).toBe(400);
    t.config.fetchAllowHosts = [`127.0.0.1:${receiver.port}`];
    expect((await dev(receiver.url)).status).toBe(204);
    const res = await render({ componentId: 'note', props: { text: 'Through the tunnel' }, context: { type: 'document', spaceId, editable: true, theme: 'dark' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.element.children[0].content).toBe('Through the tunnel');
    // Retries of earlier events queued for this installation may reach the tunnel too while dev mode is on.
    const renders = () => receiver.requests.filter((r) => r.body.toString('utf8').includes('"type":"ui_render"'));
    expect(renders().map((r) => r.url)).toEqual(['/v1']);
    expect(verified.length).toBeGreaterThan(0);
    expect(verified.every(Boolean)).toBe(true);
    expect((await t.rest('DELETE', `/v1/integrations/${NAME}/dev`, { token: acme.admin.token })).status).toBe(204);
    // Back on the script.
    expect((await render({ componentId: 'note', props: {}, context: { type: 'document', spaceId, editable: true, theme: 'dark' } })).status).toBe(200);
    expect(renders()).toHaveLength(1);
  });
});
