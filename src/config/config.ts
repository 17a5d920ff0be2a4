import { resolve } from 'node:path';
import { z } from 'zod';

export interface Config {
  port: number;
  /** Public origin of this server, used in every `urls.location`. */
  publicUrl: string;
  /** Origin of the web app, used in every `urls.app`. */
  appUrl: string;
  databaseUrl?: string;
  dataDir: string;
}

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
  DATABASE_URL: z.preprocess(
    blankIsUnset,
    z
      .string()
      .refine((s) => /^postgres(ql)?:$/.test(safeUrl(s)?.protocol ?? ''), 'DATABASE_URL must be a postgres:// URL')
      .optional(),
  ),
  QUIRE_DATA_DIR: z.preprocess(blankIsUnset, z.string().default('./.quire/data')),
  REQUEST_TIMEOUT_MS: positiveInt('REQUEST_TIMEOUT_MS'),
  DATABASE_CONNECT_TIMEOUT_MS: positiveInt('DATABASE_CONNECT_TIMEOUT_MS'),
  DATABASE_POOL_SIZE: positiveInt('DATABASE_POOL_SIZE'),
  STATEMENT_TIMEOUT_MS: positiveInt('STATEMENT_TIMEOUT_MS'),
});

/** Reads the settings; throws a ConfigError with one line per bad variable before anything is opened. */
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
  return {
    port: e.PORT,
    publicUrl,
    appUrl: (e.QUIRE_APP_URL ?? publicUrl).replace(/\/$/, ''),
    databaseUrl: e.DATABASE_URL,
    dataDir: resolve(e.QUIRE_DATA_DIR),
  };
}
