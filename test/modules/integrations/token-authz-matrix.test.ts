/**
 * Authorization matrix of the integration callers on content and organizations, both doors where
 * GraphQL has the same operation. An installation token acts with exactly its integration's
 * scopes, on exactly the spaces it was given, in exactly the organization it is installed on; an
 * integration's own token reaches no content. The callers, all of integrations Acme publishes:
 * - reader: scope space:content:read, installed on Acme, given Guide and Locked;
 * - writer: space:content:read and space:content:write, same spaces;
 * - meta: space:metadata:read, same spaces;
 * - everywhere: space:content:read with `space_selection: all`;
 * - noscope: no scope at all, given Guide and Locked;
 * - integration: the writer integration's own token;
 * - elsewhere: the writer integration installed on Other, given Other's space.
 * Guide and Kept are live spaces of Acme (Kept given to nobody), Locked is locked, Yonder is Other's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../../src/modules/integrations/tokens';
import type { TestApp } from '../../support/clients';
import { gid, gqlOutcome, mutation, restOutcome, send, type GqlCall, type Outcome, type RestCall } from '../../support/doors';
import type { OrgFixture } from '../../support/factories';
import { scenario } from '../../support/scenario';

const WHO = ['reader', 'writer', 'meta', 'everywhere', 'noscope', 'integration', 'elsewhere'] as const;
type Who = (typeof WHO)[number];
type Expect = [Outcome, Outcome, Outcome, Outcome, Outcome, Outcome, Outcome];

let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;
const tokens = {} as Record<Who, string>;
const spaces = {} as Record<'guide' | 'kept' | 'locked' | 'yonder', string>;

const SCRIPT = 'export default { fetch() { return new Response("ok"); } };';
const later = () => new Date(Date.now() + 3600_000);

async function installed(name: string, scopes: string[], org: OrgFixture, given: string[], options: { all?: boolean; integrationToken?: boolean } = {}) {
  await send(t, acme.admin.token, 'POST', `/v1/integrations/${name}`, { organization: acme.organizationId, title: `Scope ${name}`, description: '', scopes, script: SCRIPT, visibility: 'public' });
  const events = async () => (await send(t, acme.admin.token, 'GET', `/v1/integrations/${name}/events`)) as { items: { integrationId: string }[] };
  const installation = (await send(t, org.admin.token, 'POST', `/v1/integrations/${name}/installations`, { organization: org.organizationId })).id as string;
  for (const space of given) await send(t, org.admin.token, 'POST', `/v1/integrations/${name}/installations/${installation}/spaces`, { space });
  if (options.all) await send(t, org.admin.token, 'PATCH', `/v1/integrations/${name}/installations/${installation}`, { space_selection: 'all' });
  // The REST API names an integration's id only in its events.
  const id = (await events()).items[0]!.integrationId;
  return { installation: await issueToken(t.db, id, installation, later()), integration: await issueToken(t.db, id, null, later()) };
}

beforeAll(async () => {
  ({ t, acme, other } = await scenario({}));
  const space = async (org: OrgFixture, title: string) => (await send(t, org.admin.token, 'POST', `/v1/orgs/${org.organizationId}/spaces`, { title })).id as string;
  spaces.guide = await space(acme, 'Guide');
  spaces.kept = await space(acme, 'Kept');
  spaces.locked = await space(acme, 'Locked');
  spaces.yonder = await space(other, 'Yonder');
  await send(t, acme.admin.token, 'PATCH', `/v1/spaces/${spaces.locked}`, { editMode: 'locked' });
  await send(t, acme.admin.token, 'POST', `/v1/orgs/${acme.organizationId}/translations`, { language: 'de', source: { space: spaces.guide, language: 'en' } });
  const given = [spaces.guide, spaces.locked];
  tokens.reader = (await installed('scope-read', ['space:content:read'], acme, given)).installation;
  const writer = await installed('scope-write', ['space:content:read', 'space:content:write'], acme, given);
  tokens.writer = writer.installation;
  tokens.integration = writer.integration;
  tokens.meta = (await installed('scope-meta', ['space:metadata:read'], acme, given)).installation;
  tokens.everywhere = (await installed('scope-all', ['space:content:read'], acme, [], { all: true })).installation;
  tokens.noscope = (await installed('scope-none', [], acme, given)).installation;
  const installation = (await send(t, other.admin.token, 'POST', '/v1/integrations/scope-write/installations', { organization: other.organizationId })).id as string;
  await send(t, other.admin.token, 'POST', `/v1/integrations/scope-write/installations/${installation}/spaces`, { space: spaces.yonder });
  const writerId = (await send(t, acme.admin.token, 'GET', '/v1/integrations/scope-write/events')).items[0].integrationId as string;
  tokens.elsewhere = await issueToken(t.db, writerId, installation, later());
});
afterAll(() => t?.close());

interface Row {
  op: string;
  /** reader, writer, meta, everywhere, noscope, integration, elsewhere */
  expect: Expect;
  rest: () => RestCall;
  gql?: () => GqlCall;
  /** Checks what a 2xx answered (a list's length, say), as the caller's own outcome. */
  check?: (who: Who, body: any) => void;
}

const READERS: Expect = ['ok', 'ok', 'ok', 'ok', 'not_found', 'not_found', 'not_found'];
const NOBODY_ON_GIVEN: Expect = ['forbidden', 'forbidden', 'forbidden', 'forbidden', 'not_found', 'not_found', 'not_found'];
const IN_ACME: Expect = ['ok', 'ok', 'ok', 'ok', 'ok', 'not_found', 'not_found'];
const REFUSED_IN_ACME: Expect = ['forbidden', 'forbidden', 'forbidden', 'forbidden', 'forbidden', 'not_found', 'not_found'];
const node = (type: string, id: () => string) => (): GqlCall => ({ query: 'query ($id: ID!) { node(id: $id) { id } }', variables: { id: gid(type, id()) }, root: 'node' });
const org = () => `/v1/orgs/${acme.organizationId}`;

const ROWS: Row[] = [
  { op: 'read a given space', expect: READERS, rest: () => ({ method: 'GET', path: `/v1/spaces/${spaces.guide}` }), gql: node('Space', () => spaces.guide) },
  // The metadata scope shows the space, not its pages.
  { op: 'read the content of a given space', expect: ['ok', 'ok', 'forbidden', 'ok', 'not_found', 'not_found', 'not_found'], rest: () => ({ method: 'GET', path: `/v1/spaces/${spaces.guide}/content` }) },
  { op: 'search a given space', expect: ['ok', 'ok', 'forbidden', 'ok', 'not_found', 'not_found', 'not_found'], rest: () => ({ method: 'GET', path: `/v1/spaces/${spaces.guide}/search?query=guide` }) },
  {
    op: 'read a space not given',
    expect: ['not_found', 'not_found', 'not_found', 'ok', 'not_found', 'not_found', 'not_found'],
    rest: () => ({ method: 'GET', path: `/v1/spaces/${spaces.kept}` }),
    gql: node('Space', () => spaces.kept),
  },
  {
    op: "read a space of another organization (elsewhere's own)",
    expect: ['not_found', 'not_found', 'not_found', 'not_found', 'not_found', 'not_found', 'ok'],
    rest: () => ({ method: 'GET', path: `/v1/spaces/${spaces.yonder}` }),
    gql: node('Space', () => spaces.yonder),
  },
  {
    op: 'write to a given space (a change request)',
    expect: ['forbidden', 'ok', 'forbidden', 'forbidden', 'not_found', 'not_found', 'not_found'],
    rest: () => ({ method: 'POST', path: `/v1/spaces/${spaces.guide}/change-requests`, body: { subject: 'By a token' } }),
    gql: () => mutation('changeRequestCreate', { spaceId: gid('Space', spaces.guide), subject: 'By a token' }),
  },
  {
    op: 'write to a space not given',
    expect: ['not_found', 'not_found', 'not_found', 'forbidden', 'not_found', 'not_found', 'not_found'],
    rest: () => ({ method: 'POST', path: `/v1/spaces/${spaces.kept}/change-requests`, body: { subject: 'By a token' } }),
    gql: () => mutation('changeRequestCreate', { spaceId: gid('Space', spaces.kept), subject: 'By a token' }),
  },
  { op: 'write to a given space that is locked', expect: NOBODY_ON_GIVEN, rest: () => ({ method: 'POST', path: `/v1/spaces/${spaces.locked}/change-requests`, body: { subject: 'By a token' } }) },
  {
    op: 'change the settings of a given space',
    expect: NOBODY_ON_GIVEN,
    rest: () => ({ method: 'PATCH', path: `/v1/spaces/${spaces.guide}`, body: { title: 'Renamed by a token' } }),
    gql: () => mutation('spaceUpdate', { spaceId: gid('Space', spaces.guide), title: 'Renamed by a token' }),
  },
  // Deleting what the caller cannot see is the no-op 204 of a missing id (the last test shows nothing was deleted).
  { op: 'delete a given space', expect: ['forbidden', 'forbidden', 'forbidden', 'forbidden', 'ok', 'ok', 'ok'], rest: () => ({ method: 'DELETE', path: `/v1/spaces/${spaces.guide}` }) },
  { op: 'comment on a given space', expect: NOBODY_ON_GIVEN, rest: () => ({ method: 'POST', path: `/v1/spaces/${spaces.guide}/comments`, body: { body: { markdown: 'Hi' } } }) },
  { op: 'see the organization it is installed on', expect: IN_ACME, rest: () => ({ method: 'GET', path: org() }), gql: node('Organization', () => acme.organizationId) },
  {
    op: "list the organization's spaces: the given ones only",
    expect: IN_ACME,
    rest: () => ({ method: 'GET', path: `${org()}/spaces` }),
    check: (who, body) => {
      const titles = body.items.map((s: { title: string }) => s.title).sort();
      const expected = { reader: ['Guide', 'Locked'], writer: ['Guide', 'Locked'], meta: ['Guide', 'Locked'], everywhere: ['Guide', 'Kept', 'Locked'], noscope: [] }[who as 'reader'];
      expect(titles).toEqual(expected);
    },
  },
  { op: 'list members', expect: REFUSED_IN_ACME, rest: () => ({ method: 'GET', path: `${org()}/members` }) },
  { op: 'list sites', expect: REFUSED_IN_ACME, rest: () => ({ method: 'GET', path: `${org()}/sites` }) },
  // As for guests: an empty list of translations, and OpenAPI specifications as if there were no organization.
  { op: 'list translations (none shown)', expect: IN_ACME, rest: () => ({ method: 'GET', path: `${org()}/translations` }), check: (_, body) => expect(body.items).toEqual([]) },
  { op: 'list OpenAPI specifications', expect: ['not_found', 'not_found', 'not_found', 'not_found', 'not_found', 'not_found', 'not_found'], rest: () => ({ method: 'GET', path: `${org()}/openapi` }) },
  { op: 'list SAML providers', expect: REFUSED_IN_ACME, rest: () => ({ method: 'GET', path: `${org()}/saml` }) },
  { op: 'create a space', expect: REFUSED_IN_ACME, rest: () => ({ method: 'POST', path: `${org()}/spaces`, body: { title: 'By a token' } }) },
  { op: 'change the organization', expect: REFUSED_IN_ACME, rest: () => ({ method: 'PATCH', path: org(), body: { title: 'By a token' } }) },
];

describe('integration callers on content', () => {
  for (const row of ROWS) {
    WHO.forEach((who, i) => {
      it(`${row.op}: ${who} -> ${row.expect[i]} (REST)`, async () => {
        const call = row.rest();
        const res = await t.rest(call.method, call.path, { token: tokens[who], body: call.body });
        expect(restOutcome(res), JSON.stringify(res.body)).toBe(row.expect[i]);
        if (res.status < 300) row.check?.(who, res.body);
      });
      if (row.gql) {
        it(`${row.op}: ${who} -> ${row.expect[i]} (GraphQL)`, async () => {
          const call = row.gql!();
          expect(gqlOutcome(await t.graphql(call.query, call.variables, tokens[who]), call)).toBe(row.expect[i]);
        });
      }
    });
  }

  it('refused writes changed nothing: the given space keeps its title and is not in the trash', async () => {
    const space = await send(t, acme.admin.token, 'GET', `/v1/spaces/${spaces.guide}`);
    expect(space.title).toBe('Guide');
  });

  it('a token whose integration is unpublished is refused at once (401)', async () => {
    const gone = await installed('scope-gone', ['space:content:read'], acme, [spaces.guide]);
    expect((await t.rest('GET', `/v1/spaces/${spaces.guide}`, { token: gone.installation })).status).toBe(200);
    await send(t, acme.admin.token, 'DELETE', '/v1/integrations/scope-gone');
    expect((await t.rest('GET', `/v1/spaces/${spaces.guide}`, { token: gone.installation })).status).toBe(401);
  });

  it('a space taken away is out of reach at the next request', async () => {
    const name = 'scope-taken';
    const own = await installed(name, ['space:content:read'], acme, [spaces.kept]);
    expect((await t.rest('GET', `/v1/spaces/${spaces.kept}`, { token: own.installation })).status).toBe(200);
    const installation = (await send(t, acme.admin.token, 'GET', `/v1/integrations/${name}/installations`)).items[0].id;
    await send(t, acme.admin.token, 'DELETE', `/v1/integrations/${name}/installations/${installation}/spaces/${spaces.kept}`);
    expect((await t.rest('GET', `/v1/spaces/${spaces.kept}`, { token: own.installation })).status).toBe(404);
  });
});
