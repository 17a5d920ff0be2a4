import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeIntegrationRuntime } from '../../../src/runtime/deliver';
import { startTestApp, type TestApp } from '../../support/clients';
import { gid } from '../../support/doors';
import { buildMember, buildOrganization, type Actor, type OrgFixture } from '../../support/factories';
import { FIXTURES, gitbookCli, type Cli } from '../integrations/support';

/**
 * `GET /v1/spaces/{id}/revisions/{id}/changes`: what a revision changed from its parent, as the
 * catalogue's notification integrations (Slack's, among others) read it on `space_content_updated`.
 * Without it their handler failed on a 404 from Quire. Read here by a member and by an integration
 * written with the official runtime and published with the official CLI.
 */
let t: TestApp;
let server: { url: string; stop(): Promise<void> };
let cli: Cli;
let acme: OrgFixture;
let other: OrgFixture;
let reader: Actor;
let spaceId: string;
const NAME = 'quire-changes';

type Mutation = { revision: { id: string; restId: string } | null; page?: { id: string } | null; userErrors: { message: string }[] };

async function mutate(name: string, input: Record<string, unknown>): Promise<Mutation> {
  const res = await t.graphql(`mutation ($input: ${name[0]!.toUpperCase()}${name.slice(1)}Input!) { ${name}(input: $input) { revision { id restId } ${name === 'pageDelete' ? '' : 'page { id }'} userErrors { message } } }`, { input }, acme.admin.token);
  const payload = res.body.data[name] as Mutation;
  expect(payload.userErrors).toEqual([]);
  return payload;
}

const changes = (revisionId: string, query = '', token = acme.admin.token) => t.rest('GET', `/v1/spaces/${spaceId}/revisions/${revisionId}/changes${query}`, { token });

beforeAll(async () => {
  t = await startTestApp({}, { jobs: true });
  acme = await buildOrganization(t.db, 'Acme');
  other = await buildOrganization(t.db, 'Other');
  reader = await buildMember(t.db, acme.organizationId, 'read', 'Rita Reader');
  server = await t.serve();
  t.config.publicUrl = server.url;
  spaceId = (await t.rest('POST', `/v1/orgs/${acme.organizationId}/spaces`, { token: acme.admin.token, body: { title: 'Guides' } })).body.id;
}, 120_000);
afterAll(async () => {
  await cli?.dispose();
  await server?.stop();
  await t?.close();
  await closeIntegrationRuntime();
});

describe('revision changes', () => {
  it('names the pages a revision created, edited, moved and deleted, against its parent', async () => {
    const space = gid('Space', spaceId);
    const created = await mutate('pageCreate', { spaceId: space, title: 'Install', markdown: 'Run the installer.', emoji: '📦' });
    expect((await changes(created.revision!.restId)).body).toEqual({ changes: [{ type: 'page_created', page: { id: expect.any(String), type: 'document', title: 'Install', path: 'install' } }] });

    const group = await mutate('pageCreate', { spaceId: space, title: 'Setup', type: 'GROUP' });
    const edited = await mutate('pageUpdate', { pageId: created.page!.id, title: 'Installing', markdown: 'Run the new installer.' });
    const res = await changes(edited.revision!.restId);
    expect(res.status).toBe(200);
    expect(res.body.changes).toHaveLength(1);
    expect(res.body.changes[0]).toMatchObject({ type: 'page_edited', page: { title: 'Installing' }, attributes: { title: { before: 'Install', after: 'Installing' }, document: { before: expect.any(String), after: expect.any(String) } } });
    expect(res.body.changes[0].attributes.document.before).not.toBe(res.body.changes[0].attributes.document.after);

    // The GraphQL twin answers the same.
    const twin = await t.graphql('query ($id: ID!) { node(id: $id) { ... on Revision { changes { type page { restId title path } attributes } } } }', { id: edited.revision!.id }, reader.token);
    expect(twin.body.data.node.changes).toEqual([{ type: 'page_edited', page: { restId: res.body.changes[0].page.id, title: 'Installing', path: 'installing' }, attributes: res.body.changes[0].attributes }]);
    const tooMany = await t.graphql('query ($id: ID!) { node(id: $id) { ... on Revision { changes(limit: 0) { type } } } }', { id: edited.revision!.id }, reader.token);
    expect(tooMany.body.errors[0].message).toMatch(/^limit must be at least 1/);

    const moved = await mutate('pageMove', { pageId: created.page!.id, parentId: group.page!.id });
    expect((await changes(moved.revision!.restId)).body.changes).toEqual([{ type: 'page_moved', page: expect.objectContaining({ title: 'Installing', path: 'setup/installing' }), parent: { after: expect.objectContaining({ title: 'Setup', type: 'group' }) } }]);

    const deleted = await mutate('pageDelete', { pageId: group.page!.id });
    expect((await changes(deleted.revision!.restId)).body.changes.map((c: { type: string; page: { title: string } }) => [c.type, c.page.title])).toEqual([
      ['page_deleted', 'Setup'],
      ['page_deleted', 'Installing'],
    ]);
  });

  it('lists `limit` changes and counts the rest in `more`; refuses a bad limit with a 400', async () => {
    const pages = await Promise.all(['A', 'B', 'C'].map((title) => mutate('pageCreate', { spaceId: gid('Space', spaceId), title })));
    const last = pages[2]!.revision!.restId;
    expect((await changes(last, '?limit=1')).body).toEqual({ changes: [expect.objectContaining({ type: 'page_created' })] });
    for (const bad of ['0', '-1', '1.5', 'many', '1001']) {
      const refused = await changes(last, `?limit=${bad}`);
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toMatch(/^limit must/);
    }
  });

  it('answers a revision of another space, another organization or nobody exactly like a missing one', async () => {
    const otherSpace = (await t.rest('POST', `/v1/orgs/${acme.organizationId}/spaces`, { token: acme.admin.token, body: { title: 'Elsewhere' } })).body.id;
    const elsewhere = await mutate('pageCreate', { spaceId: gid('Space', otherSpace), title: 'Hidden' });
    const missing = await changes('no-such-revision');
    expect(missing.status).toBe(404);
    expect((await changes(elsewhere.revision!.restId)).body).toEqual(missing.body);
    const mine = await mutate('pageCreate', { spaceId: gid('Space', spaceId), title: 'Mine' });
    expect((await changes(mine.revision!.restId, '', reader.token)).status).toBe(200);
    const foreign = await changes(mine.revision!.restId, '', other.admin.token);
    const foreignMissing = await t.rest('GET', `/v1/spaces/no-such-space/revisions/x/changes`, { token: other.admin.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(foreignMissing.body);
  });

  it("an integration's handler reads the changes of the revision its event names", { timeout: 90_000 }, async () => {
    cli = await gitbookCli();
    await cli.run(['auth', '--endpoint', server.url, '--token', acme.admin.token]);
    const out = await cli.run(['publish', '--organization', acme.organizationId], { cwd: resolve(FIXTURES, NAME) });
    expect(out.stdout).toContain(`Integration "${NAME}" published`);
    const installed = await t.rest('POST', `/v1/integrations/${NAME}/installations`, { token: acme.admin.token, body: { organization: acme.organizationId } });
    expect((await t.rest('POST', `/v1/integrations/${NAME}/installations/${installed.body.id}/spaces`, { token: acme.admin.token, body: { space: spaceId } })).status).toBe(201);

    await mutate('pageCreate', { spaceId: gid('Space', spaceId), title: 'Release notes' });
    // A delivery that fails (a cold start past its deadline on a loaded machine) is retried: wait for the outcome.
    const deadline = Date.now() + 60_000;
    let seen: unknown;
    for (;;) {
      const list = await t.rest('GET', `/v1/integrations/${NAME}/events?limit=50`, { token: acme.admin.token });
      const event = (list.body.items as { id: string; payload: { type: string } }[]).find((e) => e.payload.type === 'space_content_updated');
      const one = event && (await t.rest('GET', `/v1/integrations/${NAME}/events/${event.id}`, { token: acme.admin.token }));
      seen = one?.body ?? list.body.items;
      if (one?.body.event.status === 'success') {
        expect(one.body.trace.logs.map((l: { message: string }) => l.message)).toEqual(expect.arrayContaining(['change page_created Release notes', 'more 0']));
        break;
      }
      if (Date.now() > deadline) throw new Error(`the event never succeeded: ${JSON.stringify(seen)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  });
});
