import { AsyncLocalStorage } from 'node:async_hooks';
import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';

export type { Logger };

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface LoggerOptions {
  level?: LogLevel;
  /** Human-readable lines instead of JSON; by default when stdout is a terminal. */
  pretty?: boolean;
  /** Where lines go (tests pass a stream); stdout otherwise, written synchronously so exit loses nothing. */
  destination?: NodeJS.WritableStream;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const settings = { level: options.level ?? 'info', base: undefined, timestamp: pino.stdTimeFunctions.isoTime };
  if (options.destination) return pino(settings, options.destination);
  if (options.pretty ?? process.stdout.isTTY) return pino(settings, pretty({ sync: true, singleLine: true, translateTime: 'SYS:HH:MM:ss.l' }));
  return pino(settings);
}

/** What is known of the request being served; filled in as routing and authentication learn it. */
export interface RequestScope {
  id: string;
  log: Logger;
  /** The route template (`/v1/orgs/:organizationId`), never the raw path. */
  route?: string;
  operationName?: string;
  callerId?: string;
}

const scopes = new AsyncLocalStorage<RequestScope>();
let rootLogger = createLogger({ level: 'info' });

/** The process's logger, for what belongs to no request (startup, shutdown, jobs). */
export function processLog(): Logger {
  return rootLogger;
}

export function setProcessLog(logger: Logger): void {
  rootLogger = logger;
}

export function runInRequestScope<T>(scope: RequestScope, fn: () => T): T {
  return scopes.run(scope, fn);
}

export function currentRequest(): RequestScope | undefined {
  return scopes.getStore();
}

/** The current request's logger (its lines carry the request id), or the process's. */
export function requestLog(): Logger {
  return scopes.getStore()?.log ?? rootLogger;
}

export function annotateRequest(facts: Partial<Pick<RequestScope, 'route' | 'operationName' | 'callerId'>>): void {
  const scope = scopes.getStore();
  if (scope) Object.assign(scope, facts);
}
