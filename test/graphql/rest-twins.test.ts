/**
 * Everything REST does, GraphQL does too: every route the router serves has a GraphQL twin in
 * ./rest-twins.ts that exists in the schema, or sits in an explicit list with its reason.
 */
import { getNullableType, isListType, isObjectType, isScalarType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema } from '../../src/app/schema';
import { restOperations } from '../support/surface';
import { EXCEPTIONS, TWINS } from './rest-twins';

const served = restOperations().map((r) => `${r.method} ${r.path}`);
const groups = { TWINS, EXCEPTIONS };

/** Why a twin does not hold in the schema, or null when it does. */
function twinProblem(twin: string): string | null {
  if (twin.startsWith('node:')) {
    const type = schema.getType(twin.slice('node:'.length));
    if (!isObjectType(type)) return `${twin}: no such object type`;
    return type.getInterfaces().some((i) => i.name === 'Node') ? null : `${twin}: not a Node`;
  }
  const [typeName, field, ...rest] = twin.split('.');
  const type = schema.getType(typeName);
  if (!isObjectType(type) || !field || rest.length) return `${twin}: no such object type`;
  return type.getFields()[field] ? null : `${twin}: no such field`;
}

/** GET routes ending in a literal segment that answer one object, not a list. */
const ONE_OBJECT = /\/(user|content|pdf|adaptive-schema|published|customization|auth|render|document|redirect|embed)$/;
/** Twins that answer with a scalar where REST answers an object holding it. */
const SCALAR_TWINS = new Set(['ChangeRequest.pdfUrl', 'Site.adaptiveSchema', 'Page.document', 'Space.document', 'ReusableContent.document']);

/** Why the kind of a GET route's twin does not match what the route answers (a list or one object), or null. */
function kindProblem(route: string, twin: string): string | null {
  const [method, path] = route.split(' ');
  if (method !== 'GET' || twin.startsWith('node:')) return null;
  const [typeName, field] = twin.split('.');
  const type = schema.getType(typeName);
  const fieldType = isObjectType(type) ? type.getFields()[field]?.type : undefined;
  if (!fieldType) return null;
  const answer = getNullableType(fieldType);
  const isList = isListType(answer) || (isObjectType(answer) && answer.name.endsWith('Connection'));
  if (isScalarType(answer) && !SCALAR_TWINS.has(twin)) return `${route} -> ${twin}: a ${answer.name}, not what the route answers`;
  const listRoute = !/^[:*]/.test(path.split('/').at(-1)!) && !ONE_OBJECT.test(path);
  if (listRoute && !isList) return `${route} -> ${twin}: the route answers a list, the field does not`;
  return null;
}

describe('REST routes and their GraphQL twins', () => {
  it('the router serves routes (the list is read from it)', () => {
    expect(served.length).toBeGreaterThan(100);
    expect(served).toContain('GET /v1/spaces/:spaceId');
  });

  it('every served route has a twin, or sits in one of the explicit lists', () => {
    const unlisted = served.filter((route) => !Object.values(groups).some((group) => Object.hasOwn(group, route)));
    expect(unlisted, 'REST routes with no GraphQL twin: add one (and a line to test/graphql/rest-twins.ts)').toEqual([]);
  });

  it('no route sits in two lists, and every listed route is served', () => {
    const listed = Object.values(groups).flatMap((group) => Object.keys(group));
    expect(listed.filter((route, i) => listed.indexOf(route) !== i)).toEqual([]);
    expect(listed.filter((route) => !served.includes(route))).toEqual([]);
  });

  it('every twin names a field or a node type of the schema', () => {
    expect(Object.values(TWINS).map(twinProblem).filter(Boolean)).toEqual([]);
  });

  it('the twin of a GET route answers the same kind of thing: a list for a list, an object for an object', () => {
    expect(Object.entries(TWINS).map(([route, twin]) => kindProblem(route, twin)).filter(Boolean)).toEqual([]);
  });

  it('every exception says why', () => {
    for (const [route, reason] of Object.entries(EXCEPTIONS)) expect(reason.length, route).toBeGreaterThan(10);
  });
});

describe('deletes in both doors', () => {
  // The sentence src/graphql/mutation.ts adds to a mutation defined with `gone`: it succeeds for a missing target, as REST's 204 does.
  const IDEMPOTENT = /When the target is missing or hidden from the caller, it succeeds and changes nothing\.|Deleting a missing [a-z ]+ succeeds\./;
  // Twins that set a whole list, of which a REST delete is one case: they have no single target to miss.
  const SETTERS = new Set(['Mutation.siteSectionGroupMembership', 'Mutation.integrationInstallationSpacesSet']);

  it("every DELETE route's mutation twin succeeds for a missing or hidden target, as the route answers 204", () => {
    const mutations = schema.getMutationType()!.getFields();
    const deletes = Object.entries(TWINS).filter(([route, twin]) => route.startsWith('DELETE ') && twin.startsWith('Mutation.') && !SETTERS.has(twin));
    expect(deletes.length).toBeGreaterThan(20);
    const strict = deletes.filter(([, twin]) => !mutations[twin.slice('Mutation.'.length)]?.description?.match(IDEMPOTENT)).map(([route, twin]) => `${route} -> ${twin}`);
    expect(strict).toEqual([]);
  });
});
