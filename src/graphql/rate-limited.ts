import type { RateLimitedError } from '../domain/errors';

/**
 * A caller over its rate limit, refused before yoga runs: HTTP 429 with Retry-After, and the
 * error in GraphQL's shape with code RATE_LIMITED so clients can tell it from other failures.
 */
export function rateLimitedResponse(error: RateLimitedError): Response {
  return Response.json(
    { errors: [{ message: error.message, extensions: { code: 'RATE_LIMITED', retryAfterSeconds: error.retryAfterSeconds } }] },
    { status: 429, headers: { 'Retry-After': String(error.retryAfterSeconds) } },
  );
}
