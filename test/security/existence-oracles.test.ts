/**
 * Foreign and missing must look the same: for every operation of both doors (enumerated from the
 * route table and the schema, so new operations are swept too), an outsider who names another
 * organization's object gets exactly the answer they get for an id that does not exist. Node
 * lookups, the typed root fields and REST GETs are swept per node type and caller, hidden objects of
 * the caller's own organization included, in node-oracles.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/clients';
import { buildMember, buildOrganization, buildTeam, type Actor, type OrgFixture } from '../support/factories';
import { gid, MISSING } from '../support/doors';
import { GraphQLEnumType, GraphQLInputObjectType, GraphQLList, GraphQLNonNull, graphqlMutations, restOperations } from '../support/surface';
import type { GraphQLInputType } from 'graphql';

let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;
const callers: Record<string, Actor | null> = {};
/** The raw id of each of acme's objects, by the name a path parameter or an input field gives it. */
const foreign: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestApp();
  acme = await buildOrganization(t.db, 'Acme');
  other = await buildOrganization(t.db, 'Other');
  const team = await buildTeam(t.db, acme.organizationId, 'Docs');
  const space = await t.rest('POST', `/v1/orgs/${acme.organizationId}/spaces`, { token: acme.admin.token, body: { title: 'Guide' } });
  const collection = await t.rest('POST', `/v1/orgs/${acme.organizationId}/collections`, { token: acme.admin.token, body: { title: 'Shelf' } });
  expect([space.status, collection.status]).toEqual([201, 201]);
  Object.assign(foreign, { organization: acme.organizationId, team: team.id, space: space.body.id, collection: collection.body.id, parent: collection.body.id });
  callers.anonymous = null;
  callers.otherAdmin = other.admin;
  callers.otherMember = await buildMember(t.db, other.organizationId, 'editor' as never);
  callers.otherGuest = await buildMember(t.db, other.organizationId, null);
}, 60_000);
afterAll(() => t.close());

/** An answer with the ids it names blanked out, so foreign and missing compare by shape and words. */
function normalize(value: unknown): string {
  let text = JSON.stringify(value) ?? '';
  for (const id of [...Object.values(foreign), MISSING]) text = text.replaceAll(id, '<id>');
  for (const type of ['Organization', 'Team', 'Space', 'Collection']) text = text.replaceAll(gid(type, MISSING), '<gid>');
  for (const [key, id] of Object.entries(foreign)) text = text.replaceAll(gid(key[0].toUpperCase() + key.slice(1), id), '<gid>');
  return text;
}

const kindOf = (param: string) => param.replace(/^[:*]/, '').replace(/Id$/, '');

describe('REST: every route, foreign id vs missing id', () => {
  it('answers the same status and body to every outsider', async () => {
    const differences: string[] = [];
    let compared = 0;
    for (const route of restOperations()) {
      const params: string[] = route.path.match(/[:*][A-Za-z]+/g) ?? [];
      for (let position = 0; position < params.length; position++) {
        const kind = kindOf(params[position]);
        if (!foreign[kind]) continue;
        for (const [who, actor] of Object.entries(callers)) {
          // Earlier parameters name the caller's own organization where they can, so the lookup reaches this one.
          const fill = (value: string) =>
            route.path.replace(/[:*][A-Za-z]+/g, (p) => {
              const index = params.indexOf(p);
              if (index === position) return value;
              if (kindOf(p) === 'organization' && index < position) return other.organizationId;
              return foreign[kindOf(p)] ?? 'x';
            });
          const send = (path: string) => t.rest(route.method, path, { token: actor?.token ?? null, body: ['GET', 'DELETE'].includes(route.method) ? undefined : { title: 'Probe' } });
          const a = await send(fill(foreign[kind]));
          const b = await send(fill(MISSING));
          compared++;
          const seen = (r: { status: number; body: unknown }) => `${r.status} ${normalize(r.body)}`;
          if (seen(a) !== seen(b)) differences.push(`${who} ${route.method} ${route.path} [${params[position]}]: foreign ${seen(a)} / missing ${seen(b)}`);
        }
      }
    }
    expect(compared).toBeGreaterThan(100);
    expect(differences).toEqual([]);
  }, 600_000);
});

/** The smallest input of a type, its `idField` naming `id`; other ids point at acme's objects. */
function minimalInput(type: GraphQLInputType, ids: (field: string) => string | undefined): unknown {
  if (type instanceof GraphQLNonNull) return minimalInput(type.ofType, ids);
  if (type instanceof GraphQLList) return [];
  if (type instanceof GraphQLEnumType) return type.getValues()[0].name;
  if (type instanceof GraphQLInputObjectType) {
    const out: Record<string, unknown> = {};
    for (const field of Object.values(type.getFields())) {
      const id = ids(field.name);
      if (id !== undefined) out[field.name] = id;
      else if (field.type instanceof GraphQLNonNull) out[field.name] = field.type.ofType.toString() === 'ID' ? gid('Space', MISSING) : minimalInput(field.type, ids);
    }
    return out;
  }
  return ({ String: 'Probe', Int: 1, Float: 1, Boolean: false } as Record<string, unknown>)[type.toString()] ?? 'Probe';
}

function graphqlAnswer(res: { status: number; body: any }): string {
  const errors = (res.body.errors ?? []).map((e: any) => ({ message: e.message, code: e.extensions?.code }));
  return `${res.status} ${normalize({ data: res.body.data ?? null, errors })}`;
}

describe('GraphQL: every mutation, foreign id vs missing id', () => {
  it('every mutation taking an id of another organization answers as for a missing one', async () => {
    const differences: string[] = [];
    let compared = 0;
    for (const mutation of graphqlMutations()) {
      if (!mutation.input) continue;
      const fields = Object.values((getInputObject(mutation.input)?.getFields() ?? {})).map((f) => f.name);
      for (const probed of fields.filter((f) => foreign[f.replace(/Id$/, '')])) {
        for (const [who, actor] of Object.entries(callers)) {
          const input = (value: string) =>
            minimalInput(mutation.input!, (field) => {
              const kind = field.replace(/Id$/, '');
              if (field === probed) return value;
              if (kind === 'organization') return gid('Organization', other.organizationId);
              return foreign[kind] ? gid(kind === 'parent' ? 'Collection' : kind[0].toUpperCase() + kind.slice(1), foreign[kind]) : undefined;
            });
          const type = probed === 'parentId' ? 'Collection' : probed[0].toUpperCase() + probed.slice(1, -2);
          const doc = `mutation ($input: ${mutation.inputTypeName}) { ${mutation.name}(input: $input) { __typename } }`;
          const a = graphqlAnswer(await t.graphql(doc, { input: input(gid(type, foreign[probed.replace(/Id$/, '')])) }, actor?.token ?? null));
          const b = graphqlAnswer(await t.graphql(doc, { input: input(gid(type, MISSING)) }, actor?.token ?? null));
          compared++;
          if (a !== b) differences.push(`${who} ${mutation.name}.${probed}: foreign ${a} / missing ${b}`);
        }
      }
    }
    expect(compared).toBeGreaterThan(40);
    expect(differences).toEqual([]);
  }, 600_000);
});

function getInputObject(type: GraphQLInputType): GraphQLInputObjectType | null {
  const inner = type instanceof GraphQLNonNull ? type.ofType : type;
  return inner instanceof GraphQLInputObjectType ? inner : null;
}
