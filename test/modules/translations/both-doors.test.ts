/**
 * Both doors, one answer, for translations: every actor asks each question through REST and
 * through GraphQL, and the answers must reduce to the same outcome (doors.ts). Writes act on a
 * fresh translation per door and cell. One difference is by design: a REST delete names the
 * organization in its path, so a caller who cannot see the organization gets its 404, while
 * GraphQL's delete names only the translation and answers an invisible one like a missing one (ok).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Role } from '../../../src/domain/roles';
import { organizationMembers } from '../../../src/db/schema/members';
import { startTestApp, type TestApp } from '../../support/clients';
import { gid, gqlOutcome, mutation, restOutcome, send, type GqlCall, type Outcome } from '../../support/doors';
import { buildMember, buildOrganization, type Actor } from '../../support/factories';
import { startTranslateServer, type TranslateServer } from '../../support/translate-server';

const WHO = ['admin', 'create', 'edit', 'read', 'guest', 'disabled', 'outsider', 'anonymous'] as const;
type Who = (typeof WHO)[number];

let t: TestApp;
let engine: TranslateServer;
let org: string;
let source: string;
let actors: Record<Exclude<Who, 'anonymous'>, Actor>;
const token = (who: Who) => (who === 'anonymous' ? null : actors[who].token);

async function fresh(): Promise<string> {
  return (await send(t, actors.admin.token, 'POST', `/v1/orgs/${org}/translations`, { language: 'fr', source: { space: source, language: 'en' } })).id;
}

interface Op {
  name: string;
  rest: (id: string) => { method: string; path: string; body?: unknown };
  gql: (id: string) => GqlCall;
  /** Where the doors differ by design: the REST outcome for these actors. */
  restDiffers?: Partial<Record<Who, Outcome>>;
}

const DOC = { object: 'document', data: {}, nodes: [] };
const OPS: Op[] = [
  {
    name: 'get',
    rest: (id) => ({ method: 'GET', path: `/v1/orgs/${org}/translations/${id}` }),
    gql: (id) => ({ query: 'query ($id: ID!) { node(id: $id) { id } }', variables: { id: gid('Translation', id) }, root: 'node' }),
  },
  {
    name: 'create',
    rest: () => ({ method: 'POST', path: `/v1/orgs/${org}/translations`, body: { language: 'de', source: { space: source, language: 'en' } } }),
    gql: () => mutation('translationCreate', { organizationId: gid('Organization', org), sourceSpaceId: gid('Space', source), sourceLanguage: 'EN', language: 'DE' }),
  },
  {
    name: 'update',
    rest: (id) => ({ method: 'PUT', path: `/v1/orgs/${org}/translations/${id}`, body: { instructions: DOC } }),
    gql: (id) => mutation('translationUpdate', { translationId: gid('Translation', id), instructions: DOC }),
  },
  {
    name: 'delete',
    rest: (id) => ({ method: 'DELETE', path: `/v1/orgs/${org}/translations/${id}` }),
    gql: (id) => mutation('translationDelete', { translationId: gid('Translation', id) }),
  },
  {
    name: 'run',
    rest: (id) => ({ method: 'POST', path: `/v1/orgs/${org}/translations/${id}/run` }),
    gql: (id) => mutation('translationRun', { translationId: gid('Translation', id) }),
  },
];

beforeAll(async () => {
  engine = await startTranslateServer();
  t = await startTestApp({}, { jobs: true });
  t.config.translate = { url: engine.url };
  t.config.fetchAllowHosts = [engine.host];
  const a = await buildOrganization(t.db, 'Doors Org');
  org = a.organizationId;
  const b = await buildOrganization(t.db, 'Other Org');
  const member = (role: Role | null, name: string) => buildMember(t.db, org, role, name);
  actors = {
    admin: a.admin,
    create: await member('create', 'Cora Create'),
    edit: await member('edit', 'Eddie Edit'),
    read: await member('read', 'Rita Read'),
    guest: await member(null, 'Gus Guest'),
    disabled: await member('edit', 'Dora Disabled'),
    outsider: b.admin,
  };
  await t.db.update(organizationMembers).set({ disabled: true }).where(eq(organizationMembers.userId, actors.disabled.userId));
  source = (await send(t, a.admin.token, 'POST', `/v1/orgs/${org}/spaces`, { title: 'Doors Guide' })).id;
});
afterAll(async () => {
  await t?.close();
  await engine?.stop();
});

describe.each(OPS.map((op) => [op.name, op] as const))('%s', (_, op) => {
  it.each(WHO)('as %s, both doors agree', async (who) => {
    const [forRest, forGql] = [await fresh(), await fresh()];
    const call = op.rest(forRest);
    const rest = restOutcome(await t.rest(call.method, call.path, { token: token(who), body: call.body }));
    const gqlCall = op.gql(forGql);
    const gql = gqlOutcome(await t.graphql(gqlCall.query, gqlCall.variables, token(who)), gqlCall);
    expect(rest).toBe(op.restDiffers?.[who] ?? gql);
  });
});

describe('list', () => {
  it.each(WHO)('as %s, both doors list the same translations', async (who) => {
    const res = await t.rest('GET', `/v1/orgs/${org}/translations?limit=1000`, { token: token(who) });
    const gql = await t.graphql('query ($id: ID!) { node(id: $id) { ... on Organization { translations(first: 100) { edges { node { restId } } } } } }', { id: gid('Organization', org) }, token(who));
    const call: GqlCall = { query: '', root: 'node' };
    expect(restOutcome(res)).toBe(gqlOutcome(gql, call));
    if (res.status === 200) {
      const restIds = res.body.items.map((i: { id: string }) => i.id).slice(0, 100).sort();
      const gqlIds = gql.body.data.node.translations.edges.map((e: { node: { restId: string } }) => e.node.restId).sort();
      expect(gqlIds).toEqual(restIds);
      expect(restIds.length > 0).toBe(who !== 'guest');
    }
  });
});
