/**
 * Existence oracles, generated over every node type and every door: for each type implementing
 * `Node` in the built schema (a new type joins by itself, and fails until Acme has an object of
 * it), each caller who may not see Acme's object of that type gets, through `node`, `nodes`, the
 * typed root fields and every REST GET route naming it, exactly the answer they get for a made-up
 * id of the same type: same status, data, errors, codes and paths, once the ids are blanked out.
 * Callers who may see it get it, so the sweep cannot pass by answering null to everyone.
 */
import { getNamedType, getNullableType, isListType, isNonNullType, isScalarType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../src/app/schema';
import { TEST_ORIGIN } from '../support/clients';
import { gid } from '../support/doors';
import { buildOracleWorld, CALLERS, madeUp, nodeTypes, restIdOf, type Caller, type OracleWorld } from '../support/oracle-world';
import { restOperations } from '../support/surface';
import { startTranslateServer, type TranslateServer } from '../support/translate-server';

let w: OracleWorld;
let engine: TranslateServer;

beforeAll(async () => {
  engine = await startTranslateServer();
  w = await buildOracleWorld(engine);
}, 600_000);
afterAll(async () => {
  await w?.t.close();
  await engine?.stop();
});

const SIGNED_IN = CALLERS.filter((c) => c !== 'anonymous');
const WITH_A_ROLE: Caller[] = ['reader', 'insider'];

/**
 * Who, besides Acme's admin, may see the object of each node type (for the reader and the
 * insider, the object in the closed space where the type has one). A type not listed: the admin alone.
 */
const SEEN_BY: Record<string, readonly Caller[]> = {
  Organization: ['guest', ...WITH_A_ROLE],
  OrganizationMember: WITH_A_ROLE,
  User: SIGNED_IN,
  Team: WITH_A_ROLE,
  Site: WITH_A_ROLE,
  SiteSpace: WITH_A_ROLE,
  SiteSection: WITH_A_ROLE,
  SiteSectionGroup: WITH_A_ROLE,
  SiteRedirect: WITH_A_ROLE,
  Translation: WITH_A_ROLE,
  OpenAPISpec: WITH_A_ROLE,
  Integration: ['guest', ...WITH_A_ROLE],
  IntegrationInstallation: WITH_A_ROLE,
  IntegrationEvent: WITH_A_ROLE,
  IntegrationSiteInstallation: WITH_A_ROLE,
  IntegrationSpaceInstallation: WITH_A_ROLE,
  // The closed content: the insider through the Insiders team.
  Space: ['insider'],
  Collection: ['insider'],
  Page: ['insider'],
  File: ['insider'],
  Revision: ['insider'],
  ChangeRequest: ['insider'],
  Comment: ['insider'],
  CommentReply: ['insider'],
};
const sees = (caller: Caller, type: string) => caller === 'admin' || (SEEN_BY[type] ?? []).includes(caller);

/** The caller's object of a type: in the closed space for the reader and the insider where there is one, and never the caller's own. */
function fixture(type: string, caller: Caller): string | undefined {
  const self = w.userIds[caller];
  const lists = [caller === 'reader' || caller === 'insider' ? w.hiddenNodes.get(type) : undefined, w.nodes.get(type)];
  for (const list of lists) {
    const id = list?.find((g) => !self || !restIdOf(g).includes(self));
    if (id) return id;
  }
  return undefined;
}

/** Made-up REST ids shaped like `restId`; for a compound id (`revision/page`), also one with only its last part made up. */
function madeUpIds(restId: string): string[] {
  const cut = restId.lastIndexOf('/');
  return cut < 0 ? [madeUp(restId)] : [madeUp(restId), restId.slice(0, cut + 1) + madeUp(restId.slice(cut + 1))];
}

/** A response as text with the given values blanked out, longest first. */
function blank(status: number, body: unknown, values: string[]): string {
  let text = `${status} ${JSON.stringify(body)}`;
  for (const value of [...values].sort((a, b) => b.length - a.length)) text = text.replaceAll(JSON.stringify(value).slice(1, -1), '<id>');
  return text;
}

interface Door {
  name: string;
  query: string;
  /** The argument value for an object: its global id, its REST id, or one of its fields. */
  value: (globalId: string, restId: string) => string;
  variables: (value: string) => Record<string, unknown>;
  answered: (data: any) => any;
}

/** The doors to an object of a type: `node`, `nodes`, and each root field answering the type from one argument. */
async function doorsOf(type: string, adminGid: string): Promise<Door[]> {
  const doors: Door[] = [
    { name: 'node', query: 'query ($v: ID!) { node(id: $v) { __typename id } }', value: (g) => g, variables: (v) => ({ v }), answered: (d) => d?.node },
    { name: 'nodes', query: 'query ($v: ID!) { nodes(ids: [$v]) { __typename id } }', value: (g) => g, variables: (v) => ({ v }), answered: (d) => d?.nodes?.[0] },
  ];
  for (const field of Object.values(schema.getQueryType()!.getFields())) {
    const required = field.args.filter((a) => isNonNullType(a.type));
    // Lookups answer one object; a list (`organizationsByEmailDomain`) is a search, not a door to one.
    if (getNamedType(field.type).name !== type || isListType(getNullableType(field.type)) || required.length !== 1 || field.args.length !== 1) continue;
    const arg = required[0];
    const query = `query ($v: ${String(arg.type)}) { ${field.name}(${arg.name}: $v) { __typename id } }`;
    const base = { query, variables: (v: string) => ({ v }), answered: (d: any) => d?.[field.name] };
    if (getNamedType(arg.type).name === 'ID') {
      doors.push({ ...base, name: `${field.name}(${arg.name}: global id)`, value: (g) => g });
      doors.push({ ...base, name: `${field.name}(${arg.name}: REST id)`, value: (_, r) => r });
    } else if (isScalarType(getNamedType(arg.type))) {
      // An argument named after a field of the type (`integration(name:)`) takes that field's value.
      const own = (await w.t.graphql(`query ($id: ID!) { node(id: $id) { ... on ${type} { ${arg.name} } } }`, { id: adminGid }, w.tokens.admin)).body.data.node[arg.name] as string;
      const values = new Map([[restIdOf(adminGid), own]]);
      doors.push({ ...base, name: `${field.name}(${arg.name}:)`, value: (_, r) => values.get(r) ?? madeUp(own) });
    }
  }
  return doors;
}

describe('GraphQL: every node type, every door, every caller', () => {
  it('answers a hidden object exactly as a made-up id of its type, and a visible one with the object', async () => {
    const problems: string[] = [];
    let compared = 0;
    let seen = 0;
    const types = nodeTypes().map((t) => t.name);
    expect(types.length).toBeGreaterThan(20);
    for (const type of types) {
      const adminGid = fixture(type, 'admin');
      if (!adminGid) {
        problems.push(`${type}: no object of this type in the fixture (test/support/oracle-world.ts)`);
        continue;
      }
      for (const door of await doorsOf(type, adminGid)) {
        for (const caller of CALLERS) {
          const real = fixture(type, caller)!;
          const realRest = restIdOf(real);
          const ask = async (value: string) => {
            const res = await w.t.graphql(door.query, door.variables(value), w.tokens[caller]);
            return { res, value };
          };
          const mine = await ask(door.value(real, realRest));
          if (sees(caller, type)) {
            seen++;
            if (door.answered(mine.res.body.data)?.id !== real) problems.push(`${caller} ${door.name} ${type}: should get the object, got ${JSON.stringify(mine.res.body)}`);
            continue;
          }
          for (const fakeRest of madeUpIds(realRest)) {
            const fake = await ask(door.value(gid(type, fakeRest), fakeRest));
            const a = blank(mine.res.status, mine.res.body, [real, realRest, mine.value]);
            const b = blank(fake.res.status, fake.res.body, [gid(type, fakeRest), fakeRest, fake.value]);
            compared++;
            if (a !== b) problems.push(`${caller} ${door.name} ${type}: real ${a} / made up ${b}`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
    expect(compared).toBeGreaterThan(300);
    expect(seen).toBeGreaterThan(100);
  }, 600_000);
});

/** Routes that show an object to callers who cannot otherwise see it, and why that is no oracle. */
const OPEN_ROUTES: Record<string, string> = {
  '/v1/orgs/:organizationId/sites/:siteId/published': 'a published public site (as the fixture has) is anyone\'s to read',
  '/v1/orgs/:organizationId/sites/:siteId/redirect': 'the redirects of a published public site are read by its readers, as its published content is',
};

/** The node type a route's path parameter names. */
function paramType(param: string, path: string): string | undefined {
  if (param === 'userId') return path.includes('/members/') ? 'OrganizationMember' : 'User';
  const named: Record<string, string> = { pagePath: 'Page', specSlug: 'OpenAPISpec', integrationName: 'Integration', installationId: 'IntegrationInstallation', eventId: 'IntegrationEvent', replyId: 'CommentReply', samlProviderId: 'SamlProvider' };
  if (named[param]) return named[param];
  const type = param.replace(/Id$/, '');
  return type === param ? undefined : type[0].toUpperCase() + type.slice(1);
}

/** The REST ids a caller's requests name: the closed content's for the reader and the insider, and a member other than themselves. */
function restIds(caller: Caller, path: string): Record<string, string> {
  const ids = { ...w.ids, ...(caller === 'reader' || caller === 'insider' ? w.hiddenIds : {}) };
  ids.userId = caller === 'admin' ? w.userIds.reader! : w.acme.admin.userId;
  // A change request's routes name its own comments.
  return path.includes('/change-requests/') ? { ...ids, commentId: ids.crCommentId, replyId: ids.crReplyId } : ids;
}

describe('REST: every GET route, every caller', () => {
  it('answers a hidden object exactly as a made-up id in its place', async () => {
    const problems: string[] = [];
    const adminFailures: string[] = [];
    let compared = 0;
    const home: Partial<Record<Caller, string>> = { outsider: w.other.organizationId, foreignInstallation: w.other.organizationId, foreignIntegration: w.other.organizationId };
    const get = async (caller: Caller, path: string) => {
      const token = w.tokens[caller];
      const res = await w.t.app.fetch(new Request(`${TEST_ORIGIN}${path}${path.endsWith('/search') ? '?query=guide' : path.endsWith('/embed') ? '?url=https%3A%2F%2Fexample.com' : ''}`, { headers: token ? { authorization: `Bearer ${token}` } : {} }));
      const text = await res.text();
      return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
    };
    for (const route of restOperations().filter((r) => r.method === 'GET')) {
      const params: string[] = route.path.match(/[:*][A-Za-z]+/g) ?? [];
      for (const caller of CALLERS) {
        if (OPEN_ROUTES[route.path] && caller !== 'anonymous') continue;
        const ids = restIds(caller, route.path);
        if (caller === 'admin' && params.every((p) => ids[p.slice(1)])) {
          const res = await get(caller, route.path.replace(/[:*]([A-Za-z]+)/g, (_, name: string) => ids[name]));
          if (res.status >= 300) adminFailures.push(`${route.path} ${res.status}`);
        }
        for (let position = 0; position < params.length; position++) {
          const name = params[position].slice(1);
          const type = paramType(name, route.path);
          if (!ids[name] || (type && sees(caller, type))) continue;
          // Earlier organization parameters name the caller's own organization where it has one, so the lookup reaches this one.
          const fill = (value: string) =>
            route.path.replace(/[:*]([A-Za-z]+)/g, (whole, param: string) => {
              const index = params.indexOf(whole);
              if (index === position) return encodeURIComponent(value).replaceAll('%2F', '/');
              if (param === 'organizationId' && index < position && home[caller]) return home[caller];
              return ids[param] ?? `no-${param}`;
            });
          const fake = madeUp(ids[name]);
          const a = await get(caller, fill(ids[name]));
          const b = await get(caller, fill(fake));
          compared++;
          const seenA = blank(a.status, a.body, [ids[name]]);
          const seenB = blank(b.status, b.body, [fake]);
          if (seenA !== seenB) problems.push(`${caller} GET ${route.path} [${name}]: real ${seenA} / made up ${seenB}`);
        }
      }
    }
    expect(problems).toEqual([]);
    // The admin reaches every route: render needs the signed state an integration's UI sends, and answers 400 after authorization;
    // the URL lookup needs the URL to resolve in its query.
    expect(adminFailures).toEqual(['/v1/integrations/:integrationName/render 400', '/v1/urls/published 400']);
    expect(compared).toBeGreaterThan(500);
  }, 600_000);
});
