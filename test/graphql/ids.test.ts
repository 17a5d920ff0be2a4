/**
 * ID inputs take a global ID or, where the type's REST id names one object, its REST id; a global
 * ID of another type is refused clearly. The first part is generated over every ID input field of
 * every mutation of the schema, so new mutations are covered as they come.
 */
import { getNamedType, isEnumType, isInputObjectType, isListType, isNonNullType, isScalarType, type GraphQLInputType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../src/app/schema';
import type { TestApp } from '../support/clients';
import { gid, MISSING } from '../support/doors';
import type { OrgFixture } from '../support/factories';
import { mutations } from '../support/graphql';
import { scenario } from '../support/scenario';

let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;
const { mutate, succeed } = mutations(() => t, { token: () => acme.admin.token });

beforeAll(async () => {
  ({ t, acme, other } = await scenario({}));
});
afterAll(() => t?.close());

type Json = Record<string, unknown>;
interface IdField {
  mutation: string;
  /** Path inside the mutation's input. */
  path: string[];
  types: string[];
  list: boolean;
}

const idTypes = (field: { extensions?: unknown }): string[] | null => {
  const ext = field.extensions as { isRelayGlobalID?: boolean; relayGlobalIDFor?: { typename: string }[] | null } | undefined;
  return ext?.isRelayGlobalID && ext.relayGlobalIDFor?.length ? ext.relayGlobalIDFor.map((f) => f.typename) : null;
};

/** A value for every required field of an input type; null when one cannot be sent as JSON (an Upload). */
function filler(type: GraphQLInputType, field?: { extensions?: unknown }): unknown {
  if (isNonNullType(type)) return filler(type.ofType, field);
  if (isListType(type)) {
    const item = filler(type.ofType, field);
    return item === null ? null : [item];
  }
  const types = field && idTypes(field);
  if (types) return gid(types[0], MISSING);
  if (isEnumType(type)) return type.getValues()[0].name;
  if (isInputObjectType(type)) {
    const out: Json = {};
    for (const f of Object.values(type.getFields())) {
      if (!isNonNullType(f.type)) continue;
      const value = filler(f.type, f);
      if (value === null) return null;
      out[f.name] = value;
    }
    return out;
  }
  if (isScalarType(type)) {
    const scalars: Record<string, unknown> = { String: 'x', ID: MISSING, Int: 1, Float: 1, Boolean: false, DateTime: '2026-01-01T00:00:00Z', JSON: {} };
    return type.name in scalars ? scalars[type.name] : null;
  }
  return null;
}

function idFields(): IdField[] {
  const out: IdField[] = [];
  for (const mutation of Object.values(schema.getMutationType()!.getFields())) {
    const input = mutation.args.find((a) => a.name === 'input');
    const walk = (type: GraphQLInputType, path: string[], seen: Set<string>) => {
      const named = getNamedType(type);
      if (!isInputObjectType(named) || seen.has(named.name)) return;
      for (const field of Object.values(named.getFields())) {
        const types = idTypes(field);
        const unwrapped = isNonNullType(field.type) ? field.type.ofType : field.type;
        if (types) out.push({ mutation: mutation.name, path: [...path, field.name], types, list: isListType(unwrapped) });
        walk(field.type, [...path, field.name], new Set([...seen, named.name]));
      }
    };
    if (input) walk(input.type, [], new Set());
  }
  return out;
}

/** The mutation's filler input with the ID field at `path` set to `value` (parents filled in as needed). */
function inputWith(field: IdField, value: string): Json | null {
  const input = schema.getMutationType()!.getFields()[field.mutation].args.find((a) => a.name === 'input')!;
  const base = filler(input.type) as Json | null;
  if (!base) return null;
  let node: Json = base;
  let type = getNamedType(input.type);
  for (const [i, key] of field.path.entries()) {
    if (!isInputObjectType(type)) return null;
    const f = type.getFields()[key];
    if (i === field.path.length - 1) {
      node[key] = field.list ? [value] : value;
    } else {
      const inner = getNamedType(f.type);
      const existing = node[key];
      const next = (Array.isArray(existing) ? existing[0] : existing) ?? filler(inner);
      if (!next) return null;
      node[key] = isListType(isNonNullType(f.type) ? f.type.ofType : f.type) ? [next] : next;
      node = next as Json;
      type = inner;
    }
  }
  return base;
}

const GLOBAL_ONLY = ['Page', 'File', 'OrganizationMember'];
const wrongType = (types: string[]) => ['Translation', 'Team'].find((t) => !types.includes(t))!;

describe('every ID input of every mutation', () => {
  const fields = idFields();

  it('finds the ID inputs of the schema', () => {
    expect(fields.length).toBeGreaterThan(100);
    expect(fields).toContainEqual({ mutation: 'pageCreate', path: ['spaceId'], types: ['Space'], list: false });
  });

  it('takes a REST id as its global ID where the REST id names one object, refuses it clearly elsewhere, and refuses a global ID of another type', async () => {
    const problems: string[] = [];
    for (const field of fields) {
      const name = `${field.mutation} ${field.path.join('.')}`;
      const restInput = inputWith(field, MISSING);
      if (!restInput) continue;
      const byRest = await mutate(field.mutation, restInput);
      const byGlobal = await mutate(field.mutation, inputWith(field, gid(field.types[0], MISSING))!);
      const byWrong = await mutate(field.mutation, inputWith(field, gid(wrongType(field.types), MISSING))!);
      // Each call sends its own clientMutationId: the rest of the answer must match.
      const strip = (r: { data?: unknown; errors?: unknown }) => JSON.stringify({ data: r.data, errors: r.errors }).replace(/"clientMutationId":"m\d+"/, '');
      const idRefusal = (r: { errors?: { message: string; extensions: { code: string } }[] }) =>
        r.errors?.find((e) => e.extensions.code === 'VALIDATION_FAILED' && /global ID/.test(e.message));
      if (idRefusal(byGlobal)) problems.push(`${name}: its global ID is refused: ${idRefusal(byGlobal)!.message}`);
      if (!idRefusal(byWrong)?.message.includes(`global ID of a ${wrongType(field.types)}`)) problems.push(`${name}: a global ID of another type is not refused clearly: ${strip(byWrong)}`);
      const restNamesOne = field.types.length === 1 && !GLOBAL_ONLY.includes(field.types[0]);
      if (restNamesOne && strip(byRest) !== strip(byGlobal)) problems.push(`${name}: a REST id answers ${strip(byRest)}, its global ID ${strip(byGlobal)}`);
      if (!restNamesOne && !idRefusal(byRest)?.message.includes('is not a global ID')) problems.push(`${name}: an ambiguous REST id is not refused clearly: ${strip(byRest)}`);
    }
    expect(problems).toEqual([]);
  });
});

describe('REST ids on real objects', () => {
  it('pageCreate takes a REST space id, as organization(id:) takes a REST organization id', async () => {
    const space = await t.rest('POST', `/v1/orgs/${acme.organizationId}/spaces`, { token: acme.admin.token, body: { title: 'Ids' } });
    const created = await succeed('pageCreate', { spaceId: space.body.id, title: 'By REST id' }, 'page { title }');
    expect(created.page.title).toBe('By REST id');
    const again = await succeed('pageCreate', { spaceId: gid('Space', space.body.id), title: 'By global ID' }, 'page { title }');
    expect(again.page.title).toBe('By global ID');
    const pages = await t.rest('GET', `/v1/spaces/${space.body.id}/content/pages`, { token: acme.admin.token });
    expect(pages.body.pages.map((p: { title: string }) => p.title)).toEqual(['By REST id', 'By global ID']);
    const updated = await succeed('spaceUpdate', { spaceId: space.body.id, title: 'Renamed' }, 'space { title }');
    expect(updated.space.title).toBe('Renamed');
  });

  it("another organization's REST id answers as a missing one", async () => {
    const theirs = await t.rest('POST', `/v1/orgs/${other.organizationId}/spaces`, { token: other.admin.token, body: { title: 'Theirs' } });
    const foreign = await mutate('spaceUpdate', { spaceId: theirs.body.id, title: 'Mine now' });
    const missing = await mutate('spaceUpdate', { spaceId: MISSING, title: 'Mine now' });
    expect(foreign.errors).toEqual(missing.errors);
    expect(foreign.errors[0].extensions.code).toBe('NOT_FOUND');
    expect((await t.rest('GET', `/v1/spaces/${theirs.body.id}`, { token: other.admin.token })).body.title).toBe('Theirs');
  });

  it('organization(id:) takes both ids and refuses a global ID of another type clearly', async () => {
    const query = 'query ($id: ID!) { organization(id: $id) { restId } }';
    for (const id of [acme.organizationId, gid('Organization', acme.organizationId)]) {
      expect((await t.graphql(query, { id }, acme.admin.token)).body.data.organization.restId).toBe(acme.organizationId);
    }
    const wrong = await t.graphql(query, { id: gid('Space', acme.organizationId) }, acme.admin.token);
    expect(wrong.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    expect(wrong.body.errors[0].message).toContain('is the global ID of a Space; a Organization is expected');
  });
});
