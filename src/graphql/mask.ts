import { PothosValidationError } from '@pothos/core';
import { GraphQLError } from 'graphql';
import { DomainError } from '../domain/errors';
import { currentRequest, requestLog } from '../lib/log';
import { isDatabaseUnavailable } from '../lib/unavailable';
import { toGraphQLError } from './errors';
import { asServiceUnavailable } from './unavailable';

/**
 * Errors the mask replaced although they were no crash: yoga logs every error the mask replaces,
 * and `quietLogger` leaves these out. The mask never edits an error in place, because compiled
 * execution (graphql-jit) hands it errors whose message and extensions cannot be changed.
 */
const expected = new WeakSet<object>();

function replaceExpected(error: unknown, replacement: GraphQLError): GraphQLError {
  if (typeof error === 'object' && error !== null) expected.add(error);
  return replacement;
}

/** What the caller may see of an error raised while executing. */
export function maskError(error: unknown, message: string, isDev?: boolean): Error {
  if (error instanceof GraphQLError && error.originalError instanceof DomainError) {
    // Compiled execution copies extensions from the original error, but only when it has them.
    if (error.extensions?.code) return error;
    return replaceExpected(error, new GraphQLError(error.message, { path: error.path, extensions: error.originalError.extensions }));
  }
  if (isDatabaseUnavailable(error)) return replaceExpected(error, asServiceUnavailable(error));
  const mapped = toGraphQLError(error);
  if (mapped) return replaceExpected(error, mapped);
  // Pothos refusing an argument (a global ID of the wrong type, a bad `first`) is the caller's mistake.
  if (error instanceof GraphQLError && error.originalError instanceof PothosValidationError) {
    return replaceExpected(error, new GraphQLError(error.message, { path: error.path, extensions: { ...error.extensions, code: 'VALIDATION_FAILED' } }));
  }
  // A variable of the wrong type (`admin` where the enum says ADMIN, "x" for an Int): the request
  // is refused before anything runs, as any invalid document is. A scalar's parseValue that
  // throws (a string where an Upload goes) leaves its error as originalError: still no crash.
  if (error instanceof GraphQLError && !error.path && /^Variable "\$[^"]+" /.test(error.message)) {
    return replaceExpected(error, new GraphQLError(error.message, { nodes: error.nodes, extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } } }));
  }
  if (error instanceof GraphQLError && !error.originalError) return error;
  requestLog().error({ err: error instanceof GraphQLError ? (error.originalError ?? error) : error }, 'internal error');
  // Logged here with the request id: yoga's own log line of it would be a second, id-less copy.
  if (typeof error === 'object' && error !== null) expected.add(error);
  const requestId = currentRequest()?.id;
  return new GraphQLError(isDev ? String(error) : message, {
    path: error instanceof GraphQLError ? error.path : undefined,
    extensions: { code: 'INTERNAL_SERVER_ERROR', ...(requestId ? { requestId } : {}) },
  });
}

/** yoga's logger, but silent about the errors the mask replaced as expected refusals. */
export const quietLogger = {
  debug: () => {},
  info: (...args: unknown[]) => requestLog().info({ yoga: args }),
  warn: (...args: unknown[]) => requestLog().warn({ yoga: args }),
  error: (...args: unknown[]) => {
    if (args.some((a) => typeof a === 'object' && a !== null && expected.has(a))) return;
    const err = args.find((a) => a instanceof Error);
    requestLog().error({ err, yoga: args.filter((a) => a !== err) }, 'graphql error');
  },
};
