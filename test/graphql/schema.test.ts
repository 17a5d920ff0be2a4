import { readFileSync } from 'node:fs';
import {
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isIntrospectionType,
  isObjectType,
  isSpecifiedScalarType,
  type GraphQLNamedType,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { printedSchema, SCHEMA_FILE } from '../../src/app/print-schema';
import { schema } from '../../src/app/schema';

/** Every schema element that should carry a description, as `Type.field(arg)` paths. */
function undocumented(): string[] {
  const missing: string[] = [];
  const check = (path: string, description: string | null | undefined) => {
    if (!description?.trim()) missing.push(path);
  };
  const types = Object.values(schema.getTypeMap()).filter(
    (type: GraphQLNamedType) => !isIntrospectionType(type) && !isSpecifiedScalarType(type),
  );
  for (const type of types) {
    check(type.name, type.description);
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const field of Object.values(type.getFields())) {
        check(`${type.name}.${field.name}`, field.description);
        for (const arg of field.args) check(`${type.name}.${field.name}(${arg.name})`, arg.description);
      }
    } else if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) check(`${type.name}.${field.name}`, field.description);
    } else if (isEnumType(type)) {
      for (const value of type.getValues()) check(`${type.name}.${value.name}`, value.description);
    }
  }
  return missing;
}

describe('GraphQL schema', () => {
  it('matches the committed schema.graphql', () => {
    const committed = readFileSync(SCHEMA_FILE, 'utf8');
    expect(committed === printedSchema(), 'schema.graphql is out of date: run `npm run schema:print` and commit the result').toBe(true);
  });

  it('documents every type, field, argument, enum value and input field', () => {
    expect(undocumented(), 'add a description to each of these').toEqual([]);
  });

  it('walks a schema with the expected root types', () => {
    // Guards the walk above against silently checking nothing.
    expect(schema.getQueryType()?.name).toBe('Query');
    expect(schema.getMutationType()?.name).toBe('Mutation');
    expect(Object.keys(schema.getTypeMap()).length).toBeGreaterThan(20);
  });
});
