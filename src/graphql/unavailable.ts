import { GraphQLError } from 'graphql';
import { DATABASE_UNAVAILABLE_MESSAGE, reportUnavailable, RETRY_AFTER_SECONDS } from '../lib/unavailable';

const RETRY_AFTER = { 'Retry-After': String(RETRY_AFTER_SECONDS) };
/** yoga turns `extensions.http` into the response's status and headers and leaves it out of the body. */
const EXTENSIONS = { code: 'SERVICE_UNAVAILABLE', http: { status: 503, headers: RETRY_AFTER } };

/**
 * For the error mask: a GraphQL error caused by an unreachable database becomes
 * SERVICE_UNAVAILABLE, HTTP 503 with Retry-After, at the same path. The message is replaced: the
 * driver's names the failed SQL. `reportUnavailable` logs the outage, a line every few seconds.
 */
export function asServiceUnavailable(error: unknown): GraphQLError {
  reportUnavailable(error);
  const path = error instanceof GraphQLError ? error.path : undefined;
  return new GraphQLError(DATABASE_UNAVAILABLE_MESSAGE, { path, extensions: EXTENSIONS });
}

/**
 * The same as a whole response, for what fails before yoga runs (authenticating the request) or
 * past the request's deadline. `cause`, when given, is reported.
 */
export function serviceUnavailableResponse(options: { cause?: unknown; message?: string } = {}): Response {
  if (options.cause !== undefined) reportUnavailable(options.cause);
  const message = options.message ?? DATABASE_UNAVAILABLE_MESSAGE;
  return Response.json({ errors: [{ message, extensions: { code: 'SERVICE_UNAVAILABLE' } }] }, { status: 503, headers: RETRY_AFTER });
}
