import { resolve } from 'node:path';

export interface Config {
  port: number;
  /** Public origin of this server, used in every `urls.location`. */
  publicUrl: string;
  /** Origin of the web app, used in every `urls.app`. */
  appUrl: string;
  databaseUrl?: string;
  dataDir: string;
  /** Requests allowed per caller and window; absent: no limits (what tests start with). */
  rateLimits?: RateLimitSettings;
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

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 4000);
  const publicUrl = (env.QUIRE_PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, '');
  return {
    port,
    publicUrl,
    appUrl: (env.QUIRE_APP_URL ?? publicUrl).replace(/\/$/, ''),
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: resolve(env.QUIRE_DATA_DIR ?? './.quire/data'),
    rateLimits: loadRateLimits(env),
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
