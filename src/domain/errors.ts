/**
 * Domain errors carry a stable code; the REST and GraphQL adapters translate them
 * (src/rest/errors.ts, src/graphql/errors.ts). Services throw nothing else on purpose.
 */
export type DomainErrorCode =
  | 'VALIDATION_FAILED'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'PRECONDITION_FAILED'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'RATE_LIMITED'
  | 'UNAVAILABLE'
  | 'UPSTREAM_FAILED'
  | 'RESPONSE_TOO_LARGE'
  | 'QUERY_TOO_COMPLEX';

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    /** Path of the offending input field, when there is one. */
    readonly field?: string[],
  ) {
    super(message);
    this.name = 'DomainError';
  }

  /** graphql-js copies an original error's `extensions` onto the GraphQL error it reports. */
  get extensions(): Record<string, unknown> {
    return { code: this.code, ...(this.field ? { field: this.field } : {}) };
  }
}

export class ValidationError extends DomainError {
  constructor(message: string, field?: string[]) {
    super('VALIDATION_FAILED', message, field);
  }
}

export class NotFoundError extends DomainError {
  constructor(what: string) {
    super('NOT_FOUND', `${what} not found`);
  }
}

export class ConflictError extends DomainError {
  constructor(message: string, field?: string[]) {
    super('CONFLICT', message, field);
  }
}

export class PreconditionFailedError extends DomainError {
  constructor(message: string, field?: string[]) {
    super('PRECONDITION_FAILED', message, field);
  }
}

export class UnauthenticatedError extends DomainError {
  constructor(message = 'Authentication required: send an API token as "Authorization: Bearer <token>"') {
    super('UNAUTHENTICATED', message);
  }
}

export class ForbiddenError extends DomainError {
  constructor(message = 'You do not have permission to do this') {
    super('FORBIDDEN', message);
  }
}

/** Too many requests from one caller in the current window; `retryAfterSeconds` until the next. */
export class RateLimitedError extends DomainError {
  constructor(
    readonly retryAfterSeconds: number,
    message = `Rate limit exceeded: try again in ${retryAfterSeconds} s`,
  ) {
    super('RATE_LIMITED', message);
  }
}

/** A part the action needs is not running or not configured here (503): the message says which. */
export class ServiceUnavailableError extends DomainError {
  constructor(message: string) {
    super('UNAVAILABLE', message);
  }
}

/** Something outside Quire that the action relies on (an integration's code, its tunnel) failed (502): the message says what. */
export class UpstreamError extends DomainError {
  constructor(message: string) {
    super('UPSTREAM_FAILED', message);
  }
}

/**
 * The answer would hold more than the server sends in one response (QUIRE_MAX_RESPONSE_BYTES): the
 * caller asked for too much at once, so it is a 400, as for a query over the cost limit.
 */
export class ResponseTooLargeError extends DomainError {
  constructor(readonly limit: number) {
    super('RESPONSE_TOO_LARGE', `The answer would be larger than ${limit} bytes, the most this server sends in one response: ask for fewer pages or spaces at once`);
  }
}

/**
 * A GraphQL query whose lists turned out longer than their estimate, so that with the sizes
 * found it would cost more than the limit: stopped as soon as the list that crossed it resolved.
 */
export class QueryTooComplexError extends DomainError {
  constructor(readonly cost: number, readonly limit: number) {
    super(
      'QUERY_TOO_COMPLEX',
      `With the sizes of its lists as found, the query would return about ${cost} fields; the limit is ${limit}. Ask for smaller pages (first/last), fewer levels or fewer fields.`,
    );
  }
}

/**
 * The request's work was stopped because nobody waits for its answer any more: its deadline passed
 * (the caller already has its 503) or the caller went away.
 */
export class RequestStoppedError extends ServiceUnavailableError {
  constructor() {
    super('The request was stopped: its deadline passed or its caller went away');
  }
}

/** Errors a caller can fix by changing the input: GraphQL mutations return them as userErrors. */
export function isUserError(error: unknown): error is DomainError {
  return (
    error instanceof DomainError &&
    (error.code === 'VALIDATION_FAILED' || error.code === 'CONFLICT' || error.code === 'PRECONDITION_FAILED')
  );
}

/**
 * For a lookup by an object's id alone (GraphQL's `node`): the object was loaded first to learn
 * where it sits, so any refusal after that would tell that it exists. Every NOT_FOUND and
 * FORBIDDEN becomes the answer for a missing `what`; the caller checks for a signed-in viewer
 * before loading anything, so UNAUTHENTICATED does not depend on the id either.
 */
export async function hiddenAsMissing<T>(promise: Promise<T>, what: string): Promise<T> {
  try {
    return await promise;
  } catch (error) {
    if (error instanceof DomainError && (error.code === 'NOT_FOUND' || error.code === 'FORBIDDEN')) throw new NotFoundError(what);
    throw error;
  }
}
