/**
 * Gives every schema of the OpenAPI document that has no `type` the types it already allows, read from
 * its `enum`/`const`, its branches (`oneOf`/`anyOf`: all of their types; `allOf`: the first typed one)
 * or its object keywords. The contract leaves `type` out of its unions (`Length` is a `oneOf` of a
 * number and an object) and of a few objects and enums; Scalar's reader (1.46) then rejects about 150
 * schemas, logs them all to the console and renders slower. With the type spelled out the
 * schemas accept the same values; the one narrowing is a schema that only lists `properties`, which
 * the contract always means as an object. A schema whose types cannot be read (`{}`) stays as it is.
 */

type Json = { [key: string]: unknown };
type Types = readonly string[];

/** Keywords whose value is one schema, or a list or a map of schemas. */
const ONE_SCHEMA = ['items', 'not', 'contentSchema', 'if', 'then', 'else', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems', 'propertyNames', 'contains'];
const SCHEMA_LISTS = ['oneOf', 'anyOf', 'allOf', 'prefixItems'];
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];
const OBJECT_KEYWORDS = ['properties', 'additionalProperties', 'patternProperties', 'required', 'minProperties', 'maxProperties'];

const isObject = (value: unknown): value is Json => !!value && typeof value === 'object' && !Array.isArray(value);

/** Changes `document` in place: its component schemas and every schema its operations hold. */
export function addImpliedTypes(document: { paths: unknown; components: Record<string, unknown> }): void {
  const components = isObject(document.components.schemas) ? document.components.schemas : {};
  const known = new Map<string, Types | null>();

  const typesOfRef = (ref: string, visiting: Set<string>): Types | null => {
    const name = /^#\/components\/schemas\/(.+)$/.exec(ref)?.[1]?.replace(/~1/g, '/').replace(/~0/g, '~');
    if (name === undefined) return null;
    if (known.has(name)) return known.get(name)!;
    // A schema that refers back to itself through its branches says nothing more about its type.
    if (visiting.has(name)) return null;
    visiting.add(name);
    const types = typesOf(components[name], visiting);
    visiting.delete(name);
    // Not kept when a loop cut it short: from another start the same schema may resolve.
    if (types || visiting.size === 0) known.set(name, types);
    return types;
  };

  const typesOf = (schema: unknown, visiting: Set<string>): Types | null => {
    if (schema === true || schema === false || !isObject(schema)) return null;
    if (typeof schema.$ref === 'string') return typesOfRef(schema.$ref, visiting);
    if (typeof schema.type === 'string') return [schema.type];
    if (Array.isArray(schema.type)) return schema.type as string[];
    if (Array.isArray(schema.enum)) return valueTypes(schema.enum);
    if ('const' in schema) return valueTypes([schema.const]);
    const branches = schema.oneOf ?? schema.anyOf;
    if (Array.isArray(branches) && branches.length > 0) {
      const all = new Set<string>();
      for (const branch of branches) {
        const types = typesOf(branch, visiting);
        if (!types) return null;
        types.forEach((type) => all.add(type));
      }
      return [...all];
    }
    if (Array.isArray(schema.allOf)) {
      for (const part of schema.allOf) {
        const types = typesOf(part, visiting);
        if (types) return types;
      }
    }
    if (OBJECT_KEYWORDS.some((keyword) => keyword in schema)) return ['object'];
    if ('items' in schema || 'prefixItems' in schema) return ['array'];
    return null;
  };

  const fill = (schema: unknown): void => {
    if (!isObject(schema)) return;
    if (schema.type === undefined && schema.$ref === undefined) {
      const types = typesOf(schema, new Set());
      if (types && types.length > 0) schema.type = types.length === 1 ? types[0] : [...types];
    }
    for (const key of ONE_SCHEMA) fill(schema[key]);
    for (const key of SCHEMA_LISTS) if (Array.isArray(schema[key])) schema[key].forEach(fill);
    for (const key of SCHEMA_MAPS) if (isObject(schema[key])) Object.values(schema[key]).forEach(fill);
  };

  Object.values(components).forEach(fill);
  // Elsewhere a schema sits under a `schema` key: parameters, headers, and media types.
  const pending: unknown[] = [document.paths, ...Object.entries(document.components).filter(([kind]) => kind !== 'schemas' && kind !== 'examples').map(([, value]) => value)];
  while (pending.length > 0) {
    const value = pending.pop();
    if (Array.isArray(value)) pending.push(...value);
    else if (isObject(value)) {
      for (const [key, child] of Object.entries(value)) {
        if (key === 'schema') fill(child);
        // Examples are data: a key named `schema` in one is not a schema.
        else if (key !== 'example' && key !== 'examples') pending.push(child);
      }
    }
  }
}

function valueTypes(values: readonly unknown[]): Types | null {
  const types = new Set<string>();
  for (const value of values) {
    if (value === null) types.add('null');
    else if (Array.isArray(value)) types.add('array');
    else if (typeof value === 'string' || typeof value === 'boolean' || typeof value === 'object') types.add(typeof value);
    else if (typeof value === 'number') types.add('number');
    else return null;
  }
  return types.size > 0 ? [...types] : null;
}
