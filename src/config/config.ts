import { resolve } from 'node:path';
import { z } from 'zod';
import { LOG_LEVELS, type LogLevel } from '../lib/log';

export interface Config {
  port: number;
  /** Public origin of this server, used in every `urls.location`. */
  publicUrl: string;
  /** Origin of the web app, used in every `urls.app`. */
  appUrl: string;
  databaseUrl?: string;
  /**
   * A direct connection to the primary (not through a transaction pooler), for what pooling breaks:
   * LISTEN/NOTIFY and the migration lock. Absent: `databaseUrl` is direct.
   */
  databaseDirectUrl?: string;
  /** `databaseUrl` goes through PgBouncer in transaction mode: no server-side prepared statements. */
  databasePooled?: boolean;
  /** A streaming replica for reads; absent: every read goes to the primary. */
  databaseReadUrl?: string;
  /** Past this many bytes of WAL behind the primary, the replica is skipped (default 16 MiB). */
  replicaMaxLagBytes?: number;
  dataDir: string;
  /** HTTP policies (CORS, body limits, GraphiQL); absent fields take the defaults of `httpSettings`. */
  http?: Partial<HttpSettings>;
  /** Requests allowed per caller and window; absent: no limits (what tests start with). */
  rateLimits?: RateLimitSettings;
  /** Hosts (`host` or `host:port`) that imports may fetch even when they resolve to internal addresses. */
  fetchAllowHosts?: string[];
  /** How long fetching a URL may take (OpenAPI specs), in ms; 15 s when absent. */
  fetchTimeoutMs?: number;
  /** The machine-translation engine translations run on; absent: running a translation answers 412. */
  translate?: TranslateSettings;
  /** Limits of the sandbox integration scripts run in; absent fields take the runtime's defaults. */
  integrationRuntime?: IntegrationRuntimeSettings;
  /** How long clients may take over their connections; absent fields take `DEFAULT_SERVER_TIMEOUTS`. */
  serverTimeouts?: Partial<ServerTimeouts>;
  /** Operations registered ahead of time (relay-compiler's persisted file); absent: none. */
  persistedOperations?: PersistedOperationsSettings;
}

/** QUIRE_PERSISTED_OPERATIONS and QUIRE_PERSISTED_ONLY. */
export interface PersistedOperationsSettings {
  /** The `{ "<id>": "<query text>" }` file, read and checked at start. */
  file: string;
  /** Refuse query text: only the file's operations run. */
  only: boolean;
}

/**
 * Node's HTTP server timeouts (src/app/server.ts). A client that opens connections and sends its
 * request slowly, or never finishes it (slowloris), is cut off instead of holding them forever.
 */
export interface ServerTimeouts {
  /** HEADERS_TIMEOUT_MS: time to send the request line and headers, from the first byte. */
  headersMs: number;
  /** RECEIVE_TIMEOUT_MS: time to send the whole request, body included (the answer is not counted). */
  receiveMs: number;
  /** KEEP_ALIVE_TIMEOUT_MS: an idle keep-alive connection is closed after this long. */
  keepAliveMs: number;
}

/**
 * 10 s is plenty for headers over any link; 60 s lets a 10 MB upload through at under 2 Mbit/s
 * and is three times the request deadline (REQUEST_TIMEOUT_MS); 5 s is Node's own keep-alive.
 */
export const DEFAULT_SERVER_TIMEOUTS: ServerTimeouts = { headersMs: 10_000, receiveMs: 60_000, keepAliveMs: 5_000 };

export function serverTimeouts(config: Pick<Config, 'serverTimeouts'>): ServerTimeouts {
  return { ...DEFAULT_SERVER_TIMEOUTS, ...config.serverTimeouts };
}

export interface IntegrationRuntimeSettings {
  /** Time for one event delivery, cold start included. */
  deadlineMs?: number;
  /** Resident memory cap of one script's runtime process, in MB. */
  memoryMb?: number;
  /** Runtimes kept warm, one per integration version. */
  warmRuntimes?: number;
}

/** A LibreTranslate-compatible server (`POST {url}/translate`). */
export interface TranslateSettings {
  url: string;
  /** Sent as `api_key` when the server asks for one. */
  key?: string;
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
  /** Largest answer, in bytes of the page text it holds (markdown, documents, diffs): see WorkBounds. */
  maxResponseBytes: number;
}

export const DEFAULT_HTTP_SETTINGS: HttpSettings = {
  corsOrigins: [],
  bodyLimitBytes: 1_000_000,
  uploadLimitBytes: 10_000_000,
  graphiql: true,
  anonymousIntrospection: true,
  maxResponseBytes: 16_000_000,
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

function loadHttpSettings(env: NodeJS.ProcessEnv, persisted: PersistedOperationsSettings | undefined): HttpSettings {
  const d = DEFAULT_HTTP_SETTINGS;
  // GraphiQL sends query text, which a persisted-only server refuses: it is off unless asked for, and asking is a mistake.
  const graphiql = flag(env, 'QUIRE_GRAPHIQL', d.graphiql && !persisted?.only);
  if (graphiql && persisted?.only) throw new ConfigError('Configuration error: QUIRE_GRAPHIQL cannot be on with QUIRE_PERSISTED_ONLY (GraphiQL sends query text, which is then refused)');
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
    graphiql,
    anonymousIntrospection: flag(env, 'QUIRE_ANONYMOUS_INTROSPECTION', d.anonymousIntrospection),
    maxResponseBytes: positiveBytes(env, 'QUIRE_MAX_RESPONSE_BYTES', d.maxResponseBytes),
  };
}

/** What only the server process reads: its logs, its metrics, its shutdown. */
export interface ObservabilityConfig {
  /** LOG_LEVEL: pino's level name (default info). */
  logLevel: LogLevel;
  /** METRICS: off, on, or token:<secret> (default off: the figures tell an outsider too much). */
  metrics: MetricsSetting;
  /** SHUTDOWN_TIMEOUT_MS: how long SIGTERM may take before the process exits anyway (default 25 s). */
  shutdownTimeoutMs: number;
}

export type MetricsSetting = { mode: 'off' } | { mode: 'on' } | { mode: 'token'; token: string };

/** A setting that could not be read; its message is one line naming the variable. */
export class ConfigError extends Error {}

const blankIsUnset = (value: unknown) => (value === '' ? undefined : value);
const positiveInt = (name: string) =>
  z.preprocess(
    blankIsUnset,
    z.coerce.number({ error: `${name} must be a whole number` }).int(`${name} must be a whole number`).positive(`${name} must be above 0`).optional(),
  );
const origin = (name: string) =>
  z.preprocess(
    blankIsUnset,
    z
      .string()
      .refine((s) => /^https?:$/.test(safeUrl(s)?.protocol ?? ''), `${name} must be an http(s) URL, got "$VALUE"`)
      .optional(),
  );

const postgresUrl = (name: string) =>
  z.preprocess(
    blankIsUnset,
    z
      .string()
      .refine((s) => /^postgres(ql)?:$/.test(safeUrl(s)?.protocol ?? ''), `${name} must be a postgres:// URL`)
      .optional(),
  );

function safeUrl(s: string): URL | undefined {
  try {
    return new URL(s);
  } catch {
    return undefined;
  }
}

/** Every environment variable the server and the command line read, checked together at start. */
export const envSchema = z.object({
  PORT: z.preprocess(
    blankIsUnset,
    z.coerce
      .number({ error: 'PORT must be a number from 0 to 65535' })
      .int('PORT must be a number from 0 to 65535')
      .min(0, 'PORT must be a number from 0 to 65535')
      .max(65535, 'PORT must be a number from 0 to 65535')
      .default(4000),
  ),
  QUIRE_PUBLIC_URL: origin('QUIRE_PUBLIC_URL'),
  QUIRE_APP_URL: origin('QUIRE_APP_URL'),
  DATABASE_URL: postgresUrl('DATABASE_URL'),
  DATABASE_DIRECT_URL: postgresUrl('DATABASE_DIRECT_URL'),
  DATABASE_READ_URL: postgresUrl('DATABASE_READ_URL'),
  DATABASE_POOLED: z.preprocess(blankIsUnset, z.enum(['true', 'false', '1', '0'], { error: 'DATABASE_POOLED must be true or false' }).optional()),
  DATABASE_REPLICA_MAX_LAG_BYTES: positiveInt('DATABASE_REPLICA_MAX_LAG_BYTES'),
  QUIRE_DATA_DIR: z.preprocess(blankIsUnset, z.string().default('./.quire/data')),
  REQUEST_TIMEOUT_MS: positiveInt('REQUEST_TIMEOUT_MS'),
  DATABASE_CONNECT_TIMEOUT_MS: positiveInt('DATABASE_CONNECT_TIMEOUT_MS'),
  DATABASE_POOL_SIZE: positiveInt('DATABASE_POOL_SIZE'),
  STATEMENT_TIMEOUT_MS: positiveInt('STATEMENT_TIMEOUT_MS'),
  QUIRE_FETCH_TIMEOUT_MS: positiveInt('QUIRE_FETCH_TIMEOUT_MS'),
  QUIRE_INTEGRATION_DEADLINE_MS: positiveInt('QUIRE_INTEGRATION_DEADLINE_MS'),
  QUIRE_INTEGRATION_MEMORY_MB: positiveInt('QUIRE_INTEGRATION_MEMORY_MB'),
  QUIRE_INTEGRATION_WARM_RUNTIMES: positiveInt('QUIRE_INTEGRATION_WARM_RUNTIMES'),
  QUIRE_TRANSLATE_URL: origin('QUIRE_TRANSLATE_URL'),
  QUIRE_TRANSLATE_KEY: z.preprocess(blankIsUnset, z.string().optional()),
  HEADERS_TIMEOUT_MS: positiveInt('HEADERS_TIMEOUT_MS'),
  RECEIVE_TIMEOUT_MS: positiveInt('RECEIVE_TIMEOUT_MS'),
  KEEP_ALIVE_TIMEOUT_MS: positiveInt('KEEP_ALIVE_TIMEOUT_MS'),
});

/** Reads the settings; throws a ConfigError, one line naming the variable, before anything is opened. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = envSchema.safeParse(env);
  if (!result.success) {
    const issue = result.error.issues[0];
    const name = String(issue.path[0] ?? 'environment');
    const value = env[name] ?? '';
    throw new ConfigError(`Configuration error: ${issue.message.replace('$VALUE', value)} (${name}="${value}")`);
  }
  const e = result.data;
  const publicUrl = (e.QUIRE_PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  const persistedOperations = loadPersistedOperationsSettings(env);
  return {
    port: e.PORT,
    publicUrl,
    appUrl: (e.QUIRE_APP_URL ?? publicUrl).replace(/\/$/, ''),
    databaseUrl: e.DATABASE_URL,
    ...databaseTopology(e),
    dataDir: resolve(e.QUIRE_DATA_DIR),
    http: loadHttpSettings(env, persistedOperations),
    rateLimits: loadRateLimits(env),
    fetchAllowHosts: (env.QUIRE_FETCH_ALLOW_HOSTS ?? '').split(',').map((h) => h.trim()).filter(Boolean),
    ...(e.QUIRE_FETCH_TIMEOUT_MS ? { fetchTimeoutMs: e.QUIRE_FETCH_TIMEOUT_MS } : {}),
    integrationRuntime: {
      deadlineMs: e.QUIRE_INTEGRATION_DEADLINE_MS,
      memoryMb: e.QUIRE_INTEGRATION_MEMORY_MB,
      warmRuntimes: e.QUIRE_INTEGRATION_WARM_RUNTIMES,
    },
    serverTimeouts: loadServerTimeouts(e),
    ...(persistedOperations ? { persistedOperations } : {}),
    ...(e.QUIRE_TRANSLATE_URL ? { translate: { url: e.QUIRE_TRANSLATE_URL.replace(/\/$/, ''), ...(e.QUIRE_TRANSLATE_KEY ? { key: e.QUIRE_TRANSLATE_KEY } : {}) } } : {}),
  };
}

/**
 * The direct URL and the replica only mean something beside DATABASE_URL. A direct URL that differs
 * from DATABASE_URL says DATABASE_URL is a pooler, unless DATABASE_POOLED says otherwise.
 */
function databaseTopology(e: z.infer<typeof envSchema>): Pick<Config, 'databaseDirectUrl' | 'databasePooled' | 'databaseReadUrl' | 'replicaMaxLagBytes'> {
  for (const name of ['DATABASE_DIRECT_URL', 'DATABASE_READ_URL', 'DATABASE_POOLED'] as const) {
    if (e[name] !== undefined && !e.DATABASE_URL) throw new ConfigError(`Configuration error: ${name} needs DATABASE_URL as well (embedded PGlite has neither pooler nor replica)`);
  }
  const direct = e.DATABASE_DIRECT_URL && e.DATABASE_DIRECT_URL !== e.DATABASE_URL ? e.DATABASE_DIRECT_URL : undefined;
  const pooled = e.DATABASE_POOLED === undefined ? direct !== undefined : e.DATABASE_POOLED === 'true' || e.DATABASE_POOLED === '1';
  return { databaseDirectUrl: direct, databasePooled: pooled, databaseReadUrl: e.DATABASE_READ_URL, replicaMaxLagBytes: e.DATABASE_REPLICA_MAX_LAG_BYTES };
}

/** The file is only named here; src/graphql/persisted.ts reads and checks it against the schema at start. */
function loadPersistedOperationsSettings(env: NodeJS.ProcessEnv): PersistedOperationsSettings | undefined {
  const only = flag(env, 'QUIRE_PERSISTED_ONLY', false);
  const file = env.QUIRE_PERSISTED_OPERATIONS?.trim();
  if (!file) {
    if (only) throw new ConfigError('Configuration error: QUIRE_PERSISTED_ONLY needs QUIRE_PERSISTED_OPERATIONS (without a file every operation would be refused)');
    return undefined;
  }
  return { file: resolve(file), only };
}

function loadServerTimeouts(e: z.infer<typeof envSchema>): ServerTimeouts {
  const d = DEFAULT_SERVER_TIMEOUTS;
  const timeouts = { headersMs: e.HEADERS_TIMEOUT_MS ?? d.headersMs, receiveMs: e.RECEIVE_TIMEOUT_MS ?? d.receiveMs, keepAliveMs: e.KEEP_ALIVE_TIMEOUT_MS ?? d.keepAliveMs };
  if (timeouts.headersMs > timeouts.receiveMs) {
    throw new ConfigError(`Configuration error: HEADERS_TIMEOUT_MS (${timeouts.headersMs}) must not exceed RECEIVE_TIMEOUT_MS (${timeouts.receiveMs}): the headers are part of the request`);
  }
  return timeouts;
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
  const raw = env.METRICS || 'off';
  let metrics: MetricsSetting;
  if (raw === 'off' || raw === 'on') metrics = { mode: raw };
  else if (raw.startsWith('token:') && raw.length >= 'token:'.length + 16) metrics = { mode: 'token', token: raw.slice('token:'.length) };
  else throw new Error('METRICS must be off, on, or token:<secret of at least 16 characters>');
  const shutdownTimeoutMs = Number(env.SHUTDOWN_TIMEOUT_MS || 25_000);
  if (!Number.isFinite(shutdownTimeoutMs) || shutdownTimeoutMs <= 0) throw new Error(`SHUTDOWN_TIMEOUT_MS must be a positive number of milliseconds, got ${env.SHUTDOWN_TIMEOUT_MS}`);
  return { logLevel, metrics, shutdownTimeoutMs };
}
