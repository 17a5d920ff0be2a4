/**
 * "Is the database unreachable?" — the one question the REST error mapper, the GraphQL error mask
 * and the start-up retry ask of a failure. Such failures say nothing about the request: the caller
 * gets 503 with Retry-After and may send it again, instead of a 500.
 */
import { requestLog } from './log';

/** How long a client should wait before retrying, in seconds (the `Retry-After` header). */
export const RETRY_AFTER_SECONDS = 1;

export const DATABASE_UNAVAILABLE_MESSAGE = 'The database is unavailable; try again shortly';

/** Errors of postgres.js itself about its connection, and of the socket under it. */
const CONNECTION_CODES = new Set([
  // postgres.js
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  // node:net and DNS
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a server that cannot serve now, not of a bad statement: class 08 (connection
 * exception), 57P01-57P03 (admin or crash shutdown, starting up or in recovery), 53300 (too many
 * connections).
 */
function isUnavailableSqlState(code: string): boolean {
  return /^08[0-9A-Z]{3}$/.test(code) || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300';
}

/**
 * True when `error`, or what it wraps (`cause`, as drizzle's DrizzleQueryError does; GraphQL's
 * `originalError`; the `errors` of an AggregateError), says the database could not be reached or
 * dropped the connection.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 8 || error === null || typeof error !== 'object') return false;
  const e = error as { code?: unknown; cause?: unknown; originalError?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && (CONNECTION_CODES.has(e.code) || isUnavailableSqlState(e.code))) return true;
  if (e.cause !== undefined && isDatabaseUnavailable(e.cause, depth + 1)) return true;
  if (e.originalError !== undefined && isDatabaseUnavailable(e.originalError, depth + 1)) return true;
  return Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1));
}

/** The innermost code and message of an unavailability error, for one log line. */
export function describeUnavailable(error: unknown): string {
  let current = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown } | undefined;
  for (let depth = 0; current && depth < 8; depth++) {
    if (typeof current.code === 'string' && (CONNECTION_CODES.has(current.code) || isUnavailableSqlState(current.code))) {
      const message = typeof current.message === 'string' ? current.message : '';
      return message.includes(current.code) ? message : `${current.code}: ${message}`;
    }
    current = (current.cause ?? (Array.isArray(current.errors) ? current.errors[0] : undefined)) as typeof current;
  }
  return error instanceof Error ? error.message : String(error);
}

let unreported = 0;
let lastReport = 0;

/**
 * Logs that requests are being refused for want of a database: one line at the first, then at most
 * one every 10 seconds with how many were refused meanwhile, so an outage does not flood the log.
 */
export function reportUnavailable(error: unknown, now = Date.now()): void {
  unreported += 1;
  if (now - lastReport < 10_000) return;
  requestLog().warn(`database unavailable, answering 503 (${unreported} request(s) since last report): ${describeUnavailable(error)}`);
  unreported = 0;
  lastReport = now;
}
