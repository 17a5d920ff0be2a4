import { GraphQLError } from 'graphql';
import { DomainError, isUserError } from '../domain/errors';
import { builder, type BuilderTypes } from './builder';

export const UserErrorCode = builder.enumType('UserErrorCode', {
  description: 'Why a mutation refused its input.',
  values: {
    VALIDATION_FAILED: { description: 'An input value is invalid: see `field` and `message`.' },
    CONFLICT: { description: 'The change conflicts with the current state (for example, removing the last admin).' },
    PRECONDITION_FAILED: { description: 'A condition the change depends on does not hold.' },
  } as const,
});

export interface UserErrorShape {
  message: string;
  code: 'VALIDATION_FAILED' | 'CONFLICT' | 'PRECONDITION_FAILED';
  field: string[] | null;
}

export const UserError = builder.objectRef<UserErrorShape>('UserError').implement({
  description: 'A problem with the input of a mutation that the caller can fix. Nothing was written.',
  fields: (t) => ({
    message: t.exposeString('message', { description: 'What is wrong, for a person to read.' }),
    code: t.field({ type: UserErrorCode, description: 'Machine-readable kind of error.', resolve: (e) => e.code }),
    field: t.exposeStringList('field', { nullable: true, description: 'Path of the offending input field, when there is one.' }),
  }),
});

/**
 * Where a service's input fields sit in a mutation's input, when the names differ: service path
 * (dot-joined, a prefix is enough) to GraphQL input path. `{ parent: 'parentId' }` turns
 * `['parent']` into `['parentId']`, `{ emails: 'invitees' }` turns `['emails', '1', 'email']` into
 * `['invitees', '1', 'email']`.
 */
export type FieldMap = Readonly<Record<string, string>>;

export function mapField(field: readonly string[] | undefined, map: FieldMap | undefined): string[] | null {
  if (!field) return null;
  for (let n = field.length; map && n > 0; n--) {
    const target = map[field.slice(0, n).join('.')];
    if (target) return [...target.split('.'), ...field.slice(n)];
  }
  return [...field];
}

/**
 * Runs a mutation's service call. Input problems become `userErrors` in the payload, their field
 * paths named as this mutation's input names them; authorization and missing objects stay
 * top-level errors with a code, per the style guide.
 */
export async function runMutation<T extends object>(fn: () => Promise<T>, fields?: FieldMap): Promise<Partial<T> & { userErrors: UserErrorShape[] }> {
  try {
    return { ...(await fn()), userErrors: [] };
  } catch (error) {
    if (!isUserError(error)) throw error;
    const userError: UserErrorShape = { message: error.message, code: error.code as UserErrorShape['code'], field: mapField(error.field, fields) };
    return { userErrors: [userError] } as Partial<T> & { userErrors: UserErrorShape[] };
  }
}

/** For query fields: a missing or hidden object resolves to null instead of an error. */
export async function orNull<T>(promise: Promise<T>): Promise<T | null> {
  try {
    return await promise;
  } catch (error) {
    if (error instanceof DomainError && error.code === 'NOT_FOUND') return null;
    throw error;
  }
}

/**
 * A domain error thrown outside a resolver, as a GraphQL error with `extensions.code`. Inside
 * resolvers graphql-js already copies `DomainError.extensions` onto the error it reports.
 */
export function toGraphQLError(error: unknown): GraphQLError | null {
  return error instanceof DomainError ? new GraphQLError(error.message, { extensions: error.extensions }) : null;
}

/** The `userErrors` field every mutation payload carries. */
export function userErrorsField<P extends { userErrors: UserErrorShape[] }>(t: PothosSchemaTypes.ObjectFieldBuilder<BuilderTypes, P>) {
  return t.field({ type: [UserError], description: 'Problems with the input; empty on success.', resolve: (p) => p.userErrors });
}
