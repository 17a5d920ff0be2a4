import { expect } from 'vitest';
import type { TestApp } from './clients';

type Input = Record<string, unknown>;

/** What a mutation answered: the response body, its payload (under the mutation's name) and the clientMutationId sent. */
export interface MutationResult {
  data?: any;
  errors?: any;
  payload: any;
  clientMutationId: string;
}

export interface MutationDefaults {
  /** The token of a call that names none; read at each call. */
  token: () => string;
  /** The payload fields asked for, besides clientMutationId and userErrors, when a call names none. */
  select?: string;
}

/**
 * GraphQL mutations by name, with checks. The document is built from the name (`spaceCreate`
 * takes a `SpaceCreateInput!`), sends a fresh clientMutationId and always asks for
 * clientMutationId and userErrors besides the selected payload fields.
 */
export function mutations(app: () => TestApp, defaults: MutationDefaults) {
  let nextId = 0;

  /** Runs one mutation; the result is for the caller to check. */
  async function mutate(name: string, input: Input, token: string = defaults.token(), select: string = defaults.select ?? ''): Promise<MutationResult> {
    const type = `${name[0].toUpperCase()}${name.slice(1)}Input`;
    const clientMutationId = `m${++nextId}`;
    const res = await app().graphql(
      `mutation ($input: ${type}!) { ${name}(input: $input) { clientMutationId userErrors { code field message } ${select} } }`,
      { input: { ...input, clientMutationId } },
      token,
    );
    return { ...res.body, payload: res.body.data?.[name], clientMutationId };
  }

  /** The payload of a mutation that must succeed: no top-level error, no user error, clientMutationId echoed. */
  async function succeed(name: string, input: Input, select: string = defaults.select ?? '', token: string = defaults.token()) {
    const res = await mutate(name, input, token, select);
    expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
    expect(res.payload.userErrors).toEqual([]);
    expect(res.payload.clientMutationId).toBe(res.clientMutationId);
    return res.payload;
  }

  /** A mutation whose input is refused: no top-level error, exactly this one user error. Returns the result for further checks. */
  async function userError(name: string, input: Input, code: string, field: string[] | null, call: { token?: string; select?: string } = {}) {
    const res = await mutate(name, input, call.token, call.select);
    expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
    expect(res.payload.userErrors).toEqual([{ code, field, message: expect.any(String) }]);
    return res;
  }

  /** A mutation refused with exactly one top-level error, carrying `code`, at the mutation's path. Returns the result. */
  async function refused(name: string, input: Input, token: string, code: string) {
    const res = await mutate(name, input, token);
    expect(res.errors, JSON.stringify(res)).toHaveLength(1);
    expect(res.errors[0].extensions.code).toBe(code);
    expect(res.errors[0].path).toEqual([name]);
    return res;
  }

  return { mutate, succeed, userError, refused };
}
