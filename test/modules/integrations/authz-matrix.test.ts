/**
 * Authorization matrix of the integration and installation operations, both doors where GraphQL
 * has the same operation. One row per operation, one expected outcome per caller:
 * - admin, create, read: members of Acme with that role; guest: a member of Acme with no role;
 * - outsider: the admin of Other, who is no member of Acme;
 * - installation: the token of matrix-app's installation on Acme (scope space:content:read, one space);
 * - integration: matrix-app's own token;
 * - anonymous: no token.
 * matrix-app is public and published by Acme, and installed on Acme and on Other; matrix-private is
 * Acme's private integration. Rows that change or delete something build their own objects per cell.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../../src/modules/integrations/tokens';
import { integrations } from '../../../src/db/schema/integrations';
import type { TestApp } from '../../support/clients';
import { gid, gqlOutcome, mutation, restOutcome, send, type GqlCall, type Outcome, type RestCall } from '../../support/doors';
import type { Actor, OrgFixture } from '../../support/factories';
import { scenario } from '../../support/scenario';

const WHO = ['admin', 'create', 'read', 'guest', 'outsider', 'installation', 'integration', 'anonymous'] as const;
type Who = (typeof WHO)[number];
type Expect = [Outcome, Outcome, Outcome, Outcome, Outcome, Outcome, Outcome, Outcome];

let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;
let people: Record<'create' | 'read' | 'guest', Actor>;
let tokens: { installation: string; integration: string };
let app: { id: string; installation: string; otherInstallation: string; event: string };
let given: string;
let privateId: string;
let n = 0;

const SCRIPT = 'export default { fetch() { return new Response("ok"); } };';
const TUNNEL = 'https://93.184.215.14/tunnel';
const later = () => new Date(Date.now() + 3600_000);

const manifest = (visibility: 'public' | 'private', title = 'Matrix one') => ({ organization: acme.organizationId, title, description: '', scopes: ['space:content:read'], script: SCRIPT, visibility });

async function publish(name: string, visibility: 'public' | 'private'): Promise<string> {
  await send(t, acme.admin.token, 'POST', `/v1/integrations/${name}`, manifest(visibility));
  const [row] = await t.db.select({ id: integrations.id }).from(integrations).where(eq(integrations.name, name));
  return row!.id;
}

async function install(name: string, org: OrgFixture): Promise<string> {
  return (await send(t, org.admin.token, 'POST', `/v1/integrations/${name}/installations`, { organization: org.organizationId })).id;
}

const newSpace = async (title: string) => (await send(t, acme.admin.token, 'POST', `/v1/orgs/${acme.organizationId}/spaces`, { title })).id as string;

/** A fresh integration of Acme for one cell, and when asked, installed on Acme with its own tokens. */
async function fresh(visibility: 'public' | 'private', installed = false) {
  const name = `matrix-${++n}`;
  const id = await publish(name, visibility);
  if (!installed) return { name, id, installation: '', tokens: null };
  const installation = await install(name, acme);
  return { name, id, installation, tokens: { installation: await issueToken(t.db, id, installation, later()), integration: await issueToken(t.db, id, null, later()) } };
}

function tokenOf(who: Who, own?: { installation: string; integration: string } | null): string | null {
  if (who === 'anonymous') return null;
  if (who === 'admin') return acme.admin.token;
  if (who === 'outsider') return other.admin.token;
  if (who === 'installation' || who === 'integration') return (own ?? tokens)[who];
  return people[who].token;
}

beforeAll(async () => {
  ({ t, acme, other, people } = await scenario({ create: ['create'], read: ['read'], guest: [null] }));
  const id = await publish('matrix-app', 'public');
  privateId = await publish('matrix-private', 'private');
  const installation = await install('matrix-app', acme);
  const otherInstallation = await install('matrix-app', other);
  given = await newSpace('Given');
  await send(t, acme.admin.token, 'POST', `/v1/integrations/matrix-app/installations/${installation}/spaces`, { space: given });
  const events = await send(t, acme.admin.token, 'GET', '/v1/integrations/matrix-app/events');
  app = { id, installation, otherInstallation, event: events.items[0].id };
  tokens = { installation: await issueToken(t.db, id, installation, later()), integration: await issueToken(t.db, id, null, later()) };
});
afterAll(() => t?.close());

interface Cell {
  rest: RestCall;
  gql?: GqlCall;
  /** Tokens of the cell's own integration, for the token callers. */
  own?: { installation: string; integration: string } | null;
}

interface Row {
  op: string;
  /** admin, create, read, guest, outsider, installation, integration, anonymous */
  expect: Expect;
  /** Whether GraphQL has the same operation: the row then runs through both doors. */
  both?: true;
  /** What GraphQL answers where it differs from REST. */
  gqlExpect?: Outcome[];
  /** Builds what one cell sends. */
  cell: (who: Who) => Promise<Cell> | Cell;
}

const OPERATORS: Expect = ['ok', 'forbidden', 'forbidden', 'forbidden', 'forbidden', 'forbidden', 'ok', 'unauthenticated'];
const PUBLISHERS: Expect = ['ok', 'forbidden', 'forbidden', 'forbidden', 'forbidden', 'forbidden', 'forbidden', 'unauthenticated'];
const APP = '/v1/integrations/matrix-app';
const INST = () => `${APP}/installations/${app.installation}`;
const node = (id: string, fields = ''): GqlCall => ({ query: `query ($id: ID!) { node(id: $id) { id ${fields ? `... on Integration { ${fields} }` : ''} } }`, variables: { id }, root: 'node' });

const ROWS: Row[] = [
  {
    op: 'get a private integration',
    both: true,
    expect: ['ok', 'ok', 'ok', 'ok', 'not_found', 'not_found', 'not_found', 'unauthenticated'],
    cell: () => ({
      rest: { method: 'GET', path: '/v1/integrations/matrix-private' },
      gql: { query: 'query { integration(name: "matrix-private") { id } }', root: 'integration' },
    }),
  },
  {
    op: 'get a public integration',
    both: true,
    expect: ['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'unauthenticated'],
    cell: () => ({ rest: { method: 'GET', path: APP }, gql: node(gid('Integration', app.id)) }),
  },
  {
    // Publishing names the organization: one the caller cannot see is a 404, as for one that does not exist.
    op: 'publish a new version',
    both: true,
    expect: ['ok', 'forbidden', 'forbidden', 'forbidden', 'not_found', 'forbidden', 'not_found', 'unauthenticated'],
    cell: () => {
      const { organization, visibility, ...rest } = manifest('public');
      return {
        rest: { method: 'POST', path: APP, body: manifest('public') },
        gql: mutation('integrationPublish', { name: 'matrix-app', organizationId: gid('Organization', organization), visibility: visibility.toUpperCase(), ...rest }),
      };
    },
  },
  {
    op: 'unpublish',
    both: true,
    // Deletes succeed for what the caller cannot see (the API's rule 5: REST 204), in both doors.
    expect: ['ok', 'forbidden', 'forbidden', 'forbidden', 'ok', 'ok', 'ok', 'unauthenticated'],
    cell: async () => {
      const { name, id } = await fresh('private');
      return { rest: { method: 'DELETE', path: `/v1/integrations/${name}` }, gql: mutation('integrationUnpublish', { integrationId: gid('Integration', id) }) };
    },
  },
  {
    op: 'turn dev mode on',
    both: true,
    expect: PUBLISHERS,
    cell: () => ({ rest: { method: 'PUT', path: `${APP}/dev`, body: { tunnelUrl: TUNNEL } }, gql: mutation('integrationDevModeSet', { integrationId: gid('Integration', app.id), tunnelUrl: TUNNEL }) }),
  },
  {
    op: 'turn dev mode off',
    both: true,
    expect: PUBLISHERS,
    cell: () => ({ rest: { method: 'DELETE', path: `${APP}/dev` }, gql: mutation('integrationDevModeDisable', { integrationId: gid('Integration', app.id) }) }),
  },
  { op: 'list installations', expect: OPERATORS, cell: () => ({ rest: { method: 'GET', path: `${APP}/installations` } }) },
  {
    op: 'list space installations',
    both: true,
    expect: OPERATORS,
    cell: () => ({ rest: { method: 'GET', path: `${APP}/spaces` }, gql: node(gid('Integration', app.id), 'spaceInstallations { totalCount }') }),
  },
  {
    op: 'list site installations',
    both: true,
    expect: OPERATORS,
    cell: () => ({ rest: { method: 'GET', path: `${APP}/sites` }, gql: node(gid('Integration', app.id), 'siteInstallations { totalCount }') }),
  },
  { op: 'list events', expect: OPERATORS, cell: () => ({ rest: { method: 'GET', path: `${APP}/events` } }) },
  { op: 'get an event', expect: OPERATORS, cell: () => ({ rest: { method: 'GET', path: `${APP}/events/${app.event}` } }) },
  {
    // The request is checked once the integration is found: callers who cannot see it learn nothing of it.
    op: 'render a private integration (malformed request)',
    both: true,
    expect: ['invalid', 'invalid', 'invalid', 'invalid', 'not_found', 'not_found', 'not_found', 'unauthenticated'],
    cell: () => ({
      rest: { method: 'GET', path: '/v1/integrations/matrix-private/render?request=%25%25not-lz' },
      gql: mutation('integrationRender', { integrationId: gid('Integration', privateId), request: { props: {} } }),
    }),
  },
  {
    op: 'install on the organization',
    both: true,
    expect: ['ok', 'forbidden', 'forbidden', 'forbidden', 'not_found', 'forbidden', 'not_found', 'unauthenticated'],
    cell: async () => {
      const { name, id } = await fresh('public');
      return {
        rest: { method: 'POST', path: `/v1/integrations/${name}/installations`, body: { organization: acme.organizationId } },
        gql: mutation('integrationInstall', { integrationId: gid('Integration', id), organizationId: gid('Organization', acme.organizationId) }),
      };
    },
  },
  {
    op: 'get an installation',
    both: true,
    expect: ['ok', 'ok', 'ok', 'not_found', 'not_found', 'ok', 'ok', 'unauthenticated'],
    cell: () => ({ rest: { method: 'GET', path: INST() }, gql: node(gid('IntegrationInstallation', app.installation)) }),
  },
  {
    // Its own tokens may configure it as well (the integration saves its settings).
    op: 'configure an installation',
    both: true,
    expect: ['ok', 'forbidden', 'forbidden', 'not_found', 'not_found', 'ok', 'ok', 'unauthenticated'],
    cell: () => ({
      rest: { method: 'PATCH', path: INST(), body: { externalIds: ['x'] } },
      gql: mutation('integrationInstallationUpdate', { installationId: gid('IntegrationInstallation', app.installation), externalIds: ['x'] }),
    }),
  },
  {
    op: 'uninstall (tokens: their own installation)',
    both: true,
    expect: ['ok', 'forbidden', 'forbidden', 'ok', 'ok', 'ok', 'ok', 'unauthenticated'],
    cell: async () => {
      const own = await fresh('public', true);
      return {
        own: own.tokens,
        rest: { method: 'DELETE', path: `/v1/integrations/${own.name}/installations/${own.installation}` },
        gql: mutation('integrationUninstall', { installationId: gid('IntegrationInstallation', own.installation) }),
      };
    },
  },
  {
    op: "uninstall (tokens: another integration's installation)",
    both: true,
    expect: ['ok', 'forbidden', 'forbidden', 'ok', 'ok', 'ok', 'ok', 'unauthenticated'],
    cell: async () => {
      const { name, installation } = await fresh('public', true);
      return {
        rest: { method: 'DELETE', path: `/v1/integrations/${name}/installations/${installation}` },
        gql: mutation('integrationUninstall', { installationId: gid('IntegrationInstallation', installation) }),
      };
    },
  },
  {
    // A token may not widen its own reach: a space it cannot see is no space of the organization to it.
    op: 'give a space',
    both: true,
    expect: ['ok', 'forbidden', 'forbidden', 'not_found', 'not_found', 'invalid', 'invalid', 'unauthenticated'],
    cell: async () => {
      const space = await newSpace(`Extra ${++n}`);
      return {
        rest: { method: 'POST', path: `${INST()}/spaces`, body: { space } },
        gql: mutation('integrationInstallationSpacesSet', { installationId: gid('IntegrationInstallation', app.installation), spaceIds: [gid('Space', given), gid('Space', space)] }),
      };
    },
  },
  {
    op: 'create an installation token',
    both: true,
    expect: ['ok', 'forbidden', 'forbidden', 'not_found', 'not_found', 'forbidden', 'ok', 'unauthenticated'],
    cell: () => ({ rest: { method: 'POST', path: `${INST()}/tokens` }, gql: mutation('integrationInstallationTokenCreate', { installationId: gid('IntegrationInstallation', app.installation) }) }),
  },
];

describe('what each caller sees of matrix-app in GraphQL lists', () => {
  const QUERY = `query ($id: ID!) { node(id: $id) { ... on Integration { installations { totalCount edges { node { id } } } events { totalCount } } } }`;
  // Acme's installation has two events (installed, a space given), Other's one.
  const SEES: Record<Exclude<Who, 'anonymous'>, { installations: string[]; events: number }> = {
    admin: { installations: ['acme', 'other'], events: 3 },
    create: { installations: ['acme'], events: 2 },
    read: { installations: ['acme'], events: 2 },
    guest: { installations: [], events: 0 },
    outsider: { installations: ['other'], events: 1 },
    installation: { installations: ['acme'], events: 2 },
    integration: { installations: ['acme', 'other'], events: 3 },
  };
  for (const [who, sees] of Object.entries(SEES) as [Exclude<Who, 'anonymous'>, (typeof SEES)[keyof typeof SEES]][]) {
    it(`${who} sees installations [${sees.installations.join(', ')}] and ${sees.events} events`, async () => {
      const res = await t.graphql(QUERY, { id: gid('Integration', app.id) }, tokenOf(who));
      const data = res.body.data.node;
      const ids = { acme: gid('IntegrationInstallation', app.installation), other: gid('IntegrationInstallation', app.otherInstallation) };
      expect(data.installations.edges.map((e: any) => e.node.id).sort()).toEqual(sees.installations.map((k) => ids[k as 'acme' | 'other']).sort());
      expect(data.installations.totalCount).toBe(sees.installations.length);
      expect(data.events.totalCount).toBe(sees.events);
    });
  }
});

describe('integration authorization matrix', () => {
  for (const row of ROWS) {
    WHO.forEach((who, i) => {
      it(`${row.op}: ${who} -> ${row.expect[i]} (REST)`, async () => {
        const cell = await row.cell(who);
        const res = await t.rest(cell.rest.method, cell.rest.path, { token: tokenOf(who, cell.own), body: cell.rest.body });
        expect(restOutcome(res), JSON.stringify(res.body)).toBe(row.expect[i]);
        if (res.status >= 400) expect(res.body).toEqual({ error: { code: res.status, message: expect.any(String) } });
      });
      if (row.both) {
        it(`${row.op}: ${who} -> ${row.expect[i]} (GraphQL)`, async () => {
          const cell = await row.cell(who);
          const res = await t.graphql(cell.gql!.query, cell.gql!.variables, tokenOf(who, cell.own));
          expect(gqlOutcome(res, cell.gql!), JSON.stringify(res.body)).toBe((row.gqlExpect ?? row.expect)[i]);
        });
      }
    });
  }

  it("another organization's private integration answers exactly like a missing one on every integration route", async () => {
    const routes: RestCall[] = [
      { method: 'GET', path: '' },
      { method: 'DELETE', path: '' },
      { method: 'PUT', path: '/dev', body: { tunnelUrl: TUNNEL } },
      { method: 'DELETE', path: '/dev' },
      { method: 'GET', path: '/installations' },
      { method: 'POST', path: '/installations', body: { organization: other.organizationId } },
      { method: 'GET', path: `/installations/${app.installation}` },
      { method: 'GET', path: '/events' },
      { method: 'GET', path: `/events/${app.event}` },
      { method: 'GET', path: '/spaces' },
      { method: 'GET', path: '/sites' },
      { method: 'GET', path: '/render?request=x' },
    ];
    const differences: string[] = [];
    for (const who of ['outsider', 'installation', 'integration'] as const) {
      for (const route of routes) {
        const ask = async (name: string) => {
          const res = await t.rest(route.method, `/v1/integrations/${name}${route.path}`, { token: tokenOf(who), body: route.body });
          return `${res.status} ${JSON.stringify(res.body ?? null).replaceAll(name, '<name>')}`;
        };
        const [foreign, missing] = [await ask('matrix-private'), await ask('matrix-none')];
        // A delete answers 204 for both (the API's rule 5), every other route 404.
        if (!foreign.startsWith(route.method === 'DELETE' ? '204' : '404') || foreign !== missing) differences.push(`${who} ${route.method} ${route.path}: ${foreign} / ${missing}`);
      }
    }
    expect(differences).toEqual([]);
  });
});
