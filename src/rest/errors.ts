import { Response } from '../lib/response';
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable, reportUnavailable, RETRY_AFTER_SECONDS } from '../lib/unavailable';
import { DomainError, RateLimitedError, type DomainErrorCode } from '../domain/errors';
import { BodyTooLargeError } from '../lib/body-too-large';
import { currentRequest, requestLog } from '../lib/log';

const STATUS: Record<DomainErrorCode, number> = {
  VALIDATION_FAILED: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PRECONDITION_FAILED: 412,
  RATE_LIMITED: 429,
  UNAVAILABLE: 503,
  UPSTREAM_FAILED: 502,
  RESPONSE_TOO_LARGE: 400,
  QUERY_TOO_COMPLEX: 400,
};

/** The platform's error body: `{ "error": { "code": <status>, "message": "..." } }`. */
export function errorResponse(status: number, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ error: { code: status, message } }, { status, headers });
}

export function domainErrorResponse(error: unknown): Response {
  if (error instanceof DomainError) {
    const status = STATUS[error.code];
    const headers: Record<string, string> = status === 401 ? { 'WWW-Authenticate': 'Bearer realm="quire"' } : {};
    if (error instanceof RateLimitedError) headers['Retry-After'] = String(error.retryAfterSeconds);
    return errorResponse(status, error.message, headers);
  }
  if (error instanceof BodyTooLargeError) return errorResponse(413, error.message);
  if (isDatabaseUnavailable(error)) {
    reportUnavailable(error);
    return errorResponse(503, DATABASE_UNAVAILABLE_MESSAGE, { 'Retry-After': String(RETRY_AFTER_SECONDS) });
  }
  // The caller quotes the id, and the log line carrying it holds the stack.
  requestLog().error({ err: error }, 'internal error');
  const id = currentRequest()?.id;
  return errorResponse(500, id ? `Internal server error (request id ${id})` : 'Internal server error');
}
