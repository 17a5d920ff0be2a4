import { resolve } from 'node:path';

export interface Config {
  port: number;
  /** Public origin of this server, used in every `urls.location`. */
  publicUrl: string;
  /** Origin of the web app, used in every `urls.app`. */
  appUrl: string;
  databaseUrl?: string;
  dataDir: string;
  /** Hosts (`host` or `host:port`) that imports may fetch even when they resolve to internal addresses. */
  fetchAllowHosts?: string[];
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
    fetchAllowHosts: (env.QUIRE_FETCH_ALLOW_HOSTS ?? '').split(',').map((h) => h.trim()).filter(Boolean),
  };
}
