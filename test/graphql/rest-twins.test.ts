/**
 * Everything REST does, GraphQL does too: every route the router serves has a GraphQL twin in
 * ./rest-twins.ts that exists in the schema, or sits in an explicit list with its reason.
 */
import { isObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema } from '../../src/app/schema';
import { restOperations } from '../support/surface';
import { EXCEPTIONS, OPEN_GAPS, PENDING_OTHER_BRANCH, TWINS } from './rest-twins';

const served = restOperations().map((r) => `${r.method} ${r.path}`);
const groups = { TWINS, PENDING_OTHER_BRANCH, EXCEPTIONS, OPEN_GAPS };

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

  it('every exception and open gap says why', () => {
    for (const group of [EXCEPTIONS, OPEN_GAPS, PENDING_OTHER_BRANCH]) {
      for (const [route, reason] of Object.entries(group)) expect(reason.length, route).toBeGreaterThan(10);
    }
  });
});
