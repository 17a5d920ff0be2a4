/**
 * Random requests against every REST route and every GraphQL mutation input: none may answer
 * 5xx, and none refused with a 4xx may have written anything. Seeded: set FUZZ_SEED to replay the
 * seed a failure prints (fast-check prints `seed` and `path` in the failure message).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeGlobalID } from '@pothos/plugin-relay';
import { startTestApp, type TestApp } from '../support/clients';
import { buildMember, buildOrganization, buildTeam, type Actor, type OrgFixture } from '../support/factories';
import {
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  graphqlMutations,
  restOperations,
  WriteWatch,
} from '../support/surface';
import type { GraphQLInputType } from 'graphql';

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const REST_RUNS_PER_ROUTE = 16;
const GRAPHQL_RUNS_PER_MUTATION = 16;
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

let t: TestApp;
let acme: OrgFixture;
let guest: Actor;
let other: OrgFixture;
let writes: WriteWatch;
const ids: string[] = [];

beforeAll(async () => {
  t = await startTestApp();
  writes = new WriteWatch(t);
  acme = await buildOrganization(t.db, 'Acme');
  other = await buildOrganization(t.db, 'Other');
  guest = await buildMember(t.db, acme.organizationId, null);
  const team = await buildTeam(t.db, acme.organizationId, 'Docs', [{ userId: acme.admin.userId, role: 'MAINTAINER' as never }]);
  const space = await t.rest('POST', `/v1/orgs/${acme.organizationId}/spaces`, { token: acme.admin.token, body: { title: 'Guide' } });
  const collection = await t.rest('POST', `/v1/orgs/${acme.organizationId}/collections`, { token: acme.admin.token, body: { title: 'Shelf' } });
  const raw = [acme.organizationId, other.organizationId, acme.admin.userId, guest.userId, team.id, space.body?.id, collection.body?.id].filter(Boolean) as string[];
  ids.push(...raw);
  for (const type of ['Organization', 'User', 'Team', 'Space', 'Collection']) ids.push(...raw.map((id) => encodeGlobalID(type, id)));
}, 60_000);
afterAll(() => t.close());

const garbage = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.constantFrom('', ' ', '\u0000', '\uD800', '%', '..', '../..', 'null', '-1', '1e400', '😀', 'a'.repeat(300)),
);

const idArb = () => fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...ids) }, garbage);
const scalar = () => fc.oneof(idArb(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
const KEYS = ['title', 'description', 'emoji', 'parent', 'parentId', 'organizationId', 'role', 'email', 'emails', 'visibility', 'members', 'userId', 'teamId', 'owner', 'page', 'limit', 'target', 'position', 'name', 'sso', 'editMode', 'language'];
const jsonBody = () =>
  fc.oneof(
    { weight: 4, arbitrary: fc.dictionary(fc.oneof(fc.constantFrom(...KEYS), fc.string({ maxLength: 6 })), fc.oneof(scalar(), fc.array(scalar(), { maxLength: 3 }), fc.dictionary(fc.constantFrom(...KEYS), scalar(), { maxKeys: 3 })), { maxKeys: 5 }) },
    fc.jsonValue({ maxDepth: 3 }),
  );

/** Percent-encodes a path segment; a lone surrogate, which UTF-8 cannot hold, goes as the bytes a careless client would send. */
function encodeSegment(value: string): string {
  return [...value].map((c) => {
    try {
      return encodeURIComponent(c);
    } catch {
      return '%ED%A0%80';
    }
  }).join('');
}

function fillPath(path: string, values: string[]): string {
  let i = 0;
  return path.replace(/[:*][A-Za-z]+/g, () => encodeSegment(values[i++] ?? 'x'));
}

const caller = () => fc.oneof({ weight: 4, arbitrary: fc.constant('admin') }, fc.constantFrom('guest', 'other', 'anonymous'));
const tokenOf = (who: string) => ({ admin: acme.admin.token, guest: guest.token, other: other.admin.token, anonymous: null })[who] ?? null;

/** Runs one request (`run` answers its status) and checks it: no 5xx, and no write behind a 4xx. */
async function expectNothingWrittenBehind4xx(write: boolean, run: () => Promise<number>) {
  const before = write ? await writes.look() : undefined;
  const answered = await run();
  expect(answered, 'no 5xx').toBeLessThan(500);
  if (before && answered >= 400) expect(await writes.printSince(before), `a refused ${answered} wrote nothing`).toBe(before.print);
}

describe('fuzzing every REST route', () => {
  it('answers no 5xx and writes nothing behind a 4xx', async () => {
    const routes = restOperations();
    expect(routes.length).toBeGreaterThan(40);
    for (const route of routes) {
      const params = (route.path.match(/[:*]/g) ?? []).length;
      const request = fc.record({
        values: fc.array(idArb(), { minLength: params, maxLength: params }),
        query: fc.dictionary(fc.oneof(fc.constantFrom('owner', 'title', 'page', 'limit', 'format', 'dereferenced'), fc.string({ maxLength: 4 })), fc.oneof(idArb(), fc.integer().map(String)), { maxKeys: 3 }),
        body: fc.oneof({ weight: 4, arbitrary: jsonBody().map((b) => ({ body: b })) }, fc.string({ maxLength: 20 }).map((raw) => ({ rawBody: raw }))),
        who: caller(),
      });
      await fc.assert(
        fc.asyncProperty(request, async ({ values, query, body, who }) => {
          const search = new URLSearchParams(query).toString();
          const path = fillPath(route.path, values) + (search ? `?${search}` : '');
          const write = WRITES.has(route.method);
          await expectNothingWrittenBehind4xx(write, async () => {
            const headers: Record<string, string> = { 'content-type': 'application/json' };
            const token = tokenOf(who);
            if (token) headers.authorization = `Bearer ${token}`;
            const payload = 'rawBody' in body ? body.rawBody : JSON.stringify(body.body);
            const res = await t.app.fetch(new Request(`http://quire.test${path}`, { method: route.method, headers, body: write ? payload : undefined }));
            const text = await res.text();
            if (res.status >= 400) expect(JSON.parse(text), `${route.method} ${path}`).toEqual({ error: { code: res.status, message: expect.any(String) } });
            return res.status;
          });
        }),
        { seed: SEED, numRuns: REST_RUNS_PER_ROUTE, endOnFailure: true },
      );
    }
  }, 600_000);
});

/** A value for a GraphQL input type, valid in shape most of the time, garbage some of the time. */
function inputValue(type: GraphQLInputType, depth = 0): fc.Arbitrary<unknown> {
  if (type instanceof GraphQLNonNull) return inputValue(type.ofType, depth);
  if (type instanceof GraphQLList) return fc.array(inputValue(type.ofType, depth + 1), { maxLength: depth > 2 ? 0 : 3 });
  if (type instanceof GraphQLEnumType) return fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...type.getValues().map((v) => v.name)) }, garbage);
  if (type instanceof GraphQLInputObjectType) {
    const fields = Object.values(type.getFields());
    const shape = Object.fromEntries(fields.map((f) => [f.name, depth > 3 ? fc.constant(null) : inputValue(f.type, depth + 1)]));
    const required = fields.filter((f) => f.type instanceof GraphQLNonNull).map((f) => f.name);
    return fc.record(shape, { requiredKeys: required });
  }
  switch (type.name) {
    case 'ID':
      return idArb();
    case 'Int':
      return fc.oneof(fc.integer({ min: -5, max: 200 }), fc.integer());
    case 'Float':
      return fc.double({ noNaN: true });
    case 'Boolean':
      return fc.boolean();
    case 'JSON':
      return fc.jsonValue({ maxDepth: 3 });
    default:
      return fc.oneof({ weight: 5, arbitrary: fc.string({ maxLength: 60 }) }, garbage);
  }
}

describe('fuzzing every GraphQL mutation input', () => {
  it('answers no 5xx or INTERNAL_SERVER_ERROR and writes nothing behind a refusal', async () => {
    const mutations = graphqlMutations();
    expect(mutations.length).toBeGreaterThan(20);
    for (const mutation of mutations) {
      const document = mutation.input
        ? `mutation ($input: ${mutation.inputTypeName}) { ${mutation.name}(input: $input) { __typename } }`
        : `mutation { ${mutation.name} { __typename } }`;
      const input = mutation.input ? fc.oneof({ weight: 6, arbitrary: inputValue(mutation.input) }, fc.jsonValue({ maxDepth: 2 })) : fc.constant(null);
      await fc.assert(
        fc.asyncProperty(input, caller(), async (value, who) => {
          await expectNothingWrittenBehind4xx(true, async () => {
            const res = await t.graphql(document, mutation.input ? { input: value } : undefined, tokenOf(who));
            const errors: { extensions?: { code?: string } }[] = res.body.errors ?? [];
            expect(errors.map((e) => e.extensions?.code), `${mutation.name} ${JSON.stringify(value)}`).not.toContain('INTERNAL_SERVER_ERROR');
            const payload = res.body.data?.[mutation.name];
            const refused = errors.length > 0 || res.status >= 400;
            // A refusal inside the payload (userErrors) is also a 4xx in spirit, but __typename does not show it: only top-level refusals count here.
            return res.status >= 500 ? res.status : refused || !payload ? 400 : 200;
          });
        }),
        { seed: SEED, numRuns: GRAPHQL_RUNS_PER_MUTATION, endOnFailure: true },
      );
    }
  }, 600_000);
});
