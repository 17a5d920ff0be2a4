/**
 * Helpers to ask REST and GraphQL the same question and reduce both answers to one comparable
 * outcome. Only external behaviour is used: HTTP through the test app, global IDs as Pothos
 * encodes them (base64 of `Type:id`).
 */
import { encodeGlobalID } from '@pothos/plugin-relay';
import { TEST_ORIGIN, type TestApp } from './clients';

export type Outcome = 'ok' | 'unauthenticated' | 'forbidden' | 'not_found' | 'invalid' | 'conflict' | 'precondition' | (string & {});

export const MISSING = 'doesNotExist00000000';

export const gid = (type: string, id: string) => encodeGlobalID(type, id);
/** A membership's global ID stands for the pair (organization, user). */
export const memberGid = (organizationId: string, userId: string) => gid('OrganizationMember', `${organizationId}/${userId}`);

const REST_OUTCOMES: Record<number, Outcome> = {
  400: 'invalid',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  412: 'precondition',
};

export function restOutcome(res: { status: number }): Outcome {
  if (res.status >= 200 && res.status < 300) return 'ok';
  return REST_OUTCOMES[res.status] ?? `http ${res.status}`;
}

const GRAPHQL_CODES: Record<string, Outcome> = {
  UNAUTHENTICATED: 'unauthenticated',
  FORBIDDEN: 'forbidden',
  NOT_FOUND: 'not_found',
  VALIDATION_FAILED: 'invalid',
  BAD_USER_INPUT: 'invalid',
  CONFLICT: 'conflict',
  PRECONDITION_FAILED: 'precondition',
};

/** One GraphQL request and where its answer sits. */
export interface GqlCall {
  query: string;
  variables?: Record<string, unknown>;
  /** The top-level field that answers the question. */
  root: string;
  mutation?: boolean;
  /** A null `root` means this instead of not_found (`viewer` is null without a token). */
  nullMeans?: Outcome;
}

export interface RestCall {
  method: string;
  path: string;
  body?: unknown;
}

/**
 * GraphQL's answer as an outcome: a bad token (HTTP 401), then the first top-level error's code,
 * then a mutation's first user error, then a null root field (not_found), else ok. Errors without
 * one of the domain codes keep their own code, so they show up as a mismatch.
 */
export function gqlOutcome(res: { status: number; body: any }, call: GqlCall): Outcome {
  if (res.status === 401) return 'unauthenticated';
  const error = res.body?.errors?.[0];
  if (error) {
    const code = error.extensions?.code;
    return GRAPHQL_CODES[code] ?? `graphql ${code ?? 'error'}: ${error.message}`;
  }
  const data = res.body?.data?.[call.root];
  if (call.mutation) {
    const userError = data?.userErrors?.[0];
    if (userError) return GRAPHQL_CODES[userError.code] ?? `userError ${userError.code}`;
    return data ? 'ok' : 'not_found';
  }
  if (data == null) return call.nullMeans ?? 'not_found';
  return 'ok';
}

/** A mutation asking only for its userErrors: the payload's other fields are not the question. */
export function mutation(name: string, input: Record<string, unknown>): GqlCall {
  const type = `${name[0].toUpperCase()}${name.slice(1)}Input`;
  return {
    query: `mutation ($input: ${type}!) { ${name}(input: $input) { userErrors { code field message } } }`,
    variables: { input },
    root: name,
    mutation: true,
  };
}

/**
 * A REST call for building fixtures: no spec validation, and anything but a 2xx throws.
 * Cheaper than `t.rest`, and loud when a fixture cannot be built.
 */
export async function send(t: TestApp, token: string, method: string, path: string, body?: unknown): Promise<any> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await t.app.fetch(
    new Request(`${TEST_ORIGIN}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }),
  );
  const text = await response.text();
  if (response.status >= 300) throw new Error(`fixture: ${method} ${path} -> ${response.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}
