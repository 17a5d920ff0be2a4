import { encodeGlobalID } from '@pothos/plugin-relay';
import { isObjectType, type GraphQLSchema } from 'graphql';
import { ValidationError } from '../domain/errors';

/*
 * ID arguments take an object's global ID or, as /v1 does, its REST id. A global ID is base64 of
 * `Type:id` for an object type of the schema; anything else is taken as a REST id.
 */

/**
 * Types whose node id is made of parts (a page or a file is named with its revision, a membership
 * with its organization): their REST id alone does not say which object is meant.
 */
export const GLOBAL_ID_ONLY = new Set(['Page', 'File', 'OrganizationMember']);

/** The type and id a global ID names, or null when `raw` is not the global ID of an object type of `schema`. */
export function readGlobalId(raw: string, schema: GraphQLSchema): { typename: string; id: string } | null {
  const decoded = Buffer.from(raw, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  const typename = decoded.slice(0, colon);
  const id = decoded.slice(colon + 1);
  if (!id || !isObjectType(schema.getType(typename)) || encodeGlobalID(typename, id) !== raw) return null;
  return { typename, id };
}

/**
 * The node id that an ID argument names, for one of `typenames`: from its global ID, or from a
 * REST id when the argument takes a single type whose REST id is its node id. A global ID of
 * another type, and a REST id where it cannot name one object, are refused.
 */
export function nodeIdFor(raw: string, typenames: readonly string[], schema: GraphQLSchema, field?: string[]): { typename: string; id: string } {
  const global = readGlobalId(raw, schema);
  const expected = typenames.join(' or ');
  if (global) {
    if (typenames.includes(global.typename)) return global;
    throw new ValidationError(`"${raw}" is the global ID of a ${global.typename}; a ${expected} is expected here`, field);
  }
  if (typenames.length === 1 && !GLOBAL_ID_ONLY.has(typenames[0])) return { typename: typenames[0], id: raw };
  const why = typenames.length > 1 ? 'a REST id does not say which of them it names' : `a ${expected}'s REST id does not name it alone`;
  throw new ValidationError(`"${raw}" is not a global ID of a ${expected}; ${why}`, field);
}

/** The REST id an ID argument names for `typename` (e.g. `organization(id:)`), from a global ID or a REST id. */
export function restIdFor(raw: string, typename: string, schema: GraphQLSchema, field?: string[]): string {
  return nodeIdFor(raw, [typename], schema, field).id;
}

/** `nodeIdFor` as a global ID string, which Pothos' relay plugin then decodes and checks as usual. */
export function asGlobalId(raw: string, typenames: readonly string[], schema: GraphQLSchema, field?: string[]): string {
  const { typename, id } = nodeIdFor(raw, typenames, schema, field);
  return encodeGlobalID(typename, id);
}
