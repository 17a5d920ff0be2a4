import { resolve } from 'node:path';
import { LOG_LEVELS, type LogLevel } from '../lib/log';

export interface Config {
  port: number;
  /** Public origin of this server, used in every `urls.location`. */
  publicUrl: string;
  /** Origin of the web app, used in every `urls.app`. */
  appUrl: string;
  databaseUrl?: string;
  dataDir: string;
  /** HTTP policies (CORS, body limits, GraphiQL); absent fields take the defaults of `httpSettings`. */
  http?: Partial<HttpSettings>;
  /** Requests allowed per caller and window; absent: no limits (what tests start with). */
  rateLimits?: RateLimitSettings;
  /** Hosts (`host` or `host:port`) that imports may fetch even when they resolve to internal addresses. */
  fetchAllowHosts?: string[];
}

export interface RateLimitSettings {
  windowSeconds: number;
  /** Requests per window of one API token. */
  perToken: number;
  /** Requests per window of one IP address without a token. */
  perIp: number;
  /** Failed authentications per window of one IP address; past it, token-bearing requests from it get 429. */
  authFailuresPerIp: number;
}

export interface HttpSettings {
  /** Origins allowed to call from a browser; empty means no cross-origin calls. */
  corsOrigins: string[];
  /** Largest request body, in bytes, cut off while it streams in. */
  bodyLimitBytes: number;
  /** Largest multipart (file upload) body on /graphql, in bytes. */
  uploadLimitBytes: number;
  /** Serve GraphiQL at GET /graphql. */
  graphiql: boolean;
  /** Let callers without a token introspect the schema. */
  anonymousIntrospection: boolean;
}

export const DEFAULT_HTTP_SETTINGS: HttpSettings = {
  corsOrigins: [],
  bodyLimitBytes: 1_000_000,
  uploadLimitBytes: 10_000_000,
  graphiql: true,
  anonymousIntrospection: true,
};

export function httpSettings(config: Pick<Config, 'http'>): HttpSettings {
  return { ...DEFAULT_HTTP_SETTINGS, ...config.http };
}

function positiveBytes(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive number of bytes, got ${raw}`);
  return value;
}

function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new Error(`${name} must be true or false, got ${raw}`);
}

function loadHttpSettings(env: NodeJS.ProcessEnv): HttpSettings {
  const d = DEFAULT_HTTP_SETTINGS;
  const corsOrigins = (env.QUIRE_CORS_ORIGINS ?? '')
    .split(',')
    .map((origin) => origin.trim().replace(/\/$/, ''))
    .filter(Boolean);
  for (const origin of corsOrigins) {
    if (!URL.canParse(origin) || new URL(origin).origin !== origin) throw new Error(`QUIRE_CORS_ORIGINS: "${origin}" is not an origin like https://app.example.com`);
  }
  return {
    corsOrigins,
    bodyLimitBytes: positiveBytes(env, 'QUIRE_BODY_LIMIT_BYTES', d.bodyLimitBytes),
    uploadLimitBytes: positiveBytes(env, 'QUIRE_UPLOAD_LIMIT_BYTES', d.uploadLimitBytes),
    graphiql: flag(env, 'QUIRE_GRAPHIQL', d.graphiql),
    anonymousIntrospection: flag(env, 'QUIRE_ANONYMOUS_INTROSPECTION', d.anonymousIntrospection),
  };
}

/** What only the server process reads: its logs, its metrics, its shutdown. */
export interface ObservabilityConfig {
  /** LOG_LEVEL: pino's level name (default info). */
  logLevel: LogLevel;
  /** METRICS: off, on, or token:<secret> (default on, off when NODE_ENV=production). */
  metrics: MetricsSetting;
  /** SHUTDOWN_TIMEOUT_MS: how long SIGTERM may take before the process exits anyway (default 25 s). */
  shutdownTimeoutMs: number;
}

export type MetricsSetting = { mode: 'off' } | { mode: 'on' } | { mode: 'token'; token: string };

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 4000);
  const publicUrl = (env.QUIRE_PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, '');
  return {
    port,
    publicUrl,
    appUrl: (env.QUIRE_APP_URL ?? publicUrl).replace(/\/$/, ''),
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: resolve(env.QUIRE_DATA_DIR ?? './.quire/data'),
    http: loadHttpSettings(env),
    rateLimits: loadRateLimits(env),
    fetchAllowHosts: (env.QUIRE_FETCH_ALLOW_HOSTS ?? '').split(',').map((h) => h.trim()).filter(Boolean),
  };
}

function loadRateLimits(env: NodeJS.ProcessEnv): RateLimitSettings | undefined {
  if (env.RATE_LIMITS === 'off') return undefined;
  if (env.RATE_LIMITS !== undefined && env.RATE_LIMITS !== 'on') throw new Error(`RATE_LIMITS must be on or off, got ${env.RATE_LIMITS}`);
  const positive = (name: string, fallback: number) => {
    const value = Number(env[name] ?? fallback);
    if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, got ${env[name]}`);
    return value;
  };
  return {
    windowSeconds: positive('RATE_LIMIT_WINDOW_SECONDS', 60),
    perToken: positive('RATE_LIMIT_PER_TOKEN', 6000),
    perIp: positive('RATE_LIMIT_PER_IP', 600),
    authFailuresPerIp: positive('RATE_LIMIT_AUTH_FAILURES_PER_IP', 20),
  };
}

export function loadObservabilityConfig(env: NodeJS.ProcessEnv = process.env): ObservabilityConfig {
  const logLevel = (env.LOG_LEVEL || 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got ${env.LOG_LEVEL}`);
  const raw = env.METRICS || (env.NODE_ENV === 'production' ? 'off' : 'on');
  let metrics: MetricsSetting;
  if (raw === 'off' || raw === 'on') metrics = { mode: raw };
  else if (raw.startsWith('token:') && raw.length >= 'token:'.length + 16) metrics = { mode: 'token', token: raw.slice('token:'.length) };
  else throw new Error('METRICS must be off, on, or token:<secret of at least 16 characters>');
  const shutdownTimeoutMs = Number(env.SHUTDOWN_TIMEOUT_MS || 25_000);
  if (!Number.isFinite(shutdownTimeoutMs) || shutdownTimeoutMs <= 0) throw new Error(`SHUTDOWN_TIMEOUT_MS must be a positive number of milliseconds, got ${env.SHUTDOWN_TIMEOUT_MS}`);
  return { logLevel, metrics, shutdownTimeoutMs };
}
