import type { Config } from '../config/config';
import type { Db } from '../db/client';
import { createLoaders } from '../db/loader';
import type { RequestContext, Viewer } from '../context/request-context';
import { annotateRequest } from '../lib/log';
import { authenticate } from './authenticate';
import { Authz } from './authz';
import type { SessionCache } from './sessions';

/** What the app is built from: the database, the settings, the clock and the session cache. */
export interface AppServices {
  db: Db;
  config: Config;
  now?: () => Date;
  /** Without one, every request authenticates against the database. */
  sessions?: SessionCache;
}

export function createContext(services: AppServices, viewer: Viewer | null): RequestContext {
  const ctx = {
    db: services.db,
    config: services.config,
    viewer,
    loaders: createLoaders(services.db),
    now: services.now ?? (() => new Date()),
    sessions: services.sessions,
  } as RequestContext;
  ctx.authz = new Authz(ctx);
  return ctx;
}

/** Authenticates the request's bearer token; throws UNAUTHENTICATED for a bad one. */
export async function createRequestContext(services: AppServices, request: Request): Promise<RequestContext> {
  const viewer = await authenticate(services.db, request.headers.get('authorization'), services.sessions);
  annotateRequest({ callerId: viewer?.user.id });
  return createContext(services, viewer);
}
