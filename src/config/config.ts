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
