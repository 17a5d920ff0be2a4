import { Response } from '../lib/response';
import type { UnauthenticatedError } from '../domain/errors';

/**
 * A bad credential on /graphql, refused before yoga runs: still HTTP 401, but in GraphQL's shape,
 * so a GraphQL client (GraphiQL included) shows the message instead of failing to parse the body.
 */
export function unauthenticatedResponse(error: UnauthenticatedError): Response {
  return Response.json({ errors: [{ message: error.message, extensions: { code: 'UNAUTHENTICATED' } }] }, { status: 401, headers: { 'WWW-Authenticate': 'Bearer realm="quire"' } });
}

/** A request body over the limit, in the same shape. */
export function tooLargeResponse(message: string): Response {
  return Response.json({ errors: [{ message, extensions: { code: 'REQUEST_ENTITY_TOO_LARGE' } }] }, { status: 413 });
}
