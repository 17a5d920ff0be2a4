import type { Db } from '../db/client';
import { Authz } from '../domain/authz';
import { authenticate, type Viewer } from '../modules/users/service';
import type { Config } from './config';
import { Loaders } from './loaders';

/**
 * Everything a service needs for one request, the same for GraphQL and REST. Services never see
 * the HTTP request itself.
 */
export interface RequestContext {
  db: Db;
  config: Config;
  viewer: Viewer | null;
  loaders: Loaders;
  authz: Authz;
  /** The clock; tests move it to cross time windows. */
  now(): Date;
}

export interface AppServices {
  db: Db;
  config: Config;
  now?: () => Date;
}

export function createContext(services: AppServices, viewer: Viewer | null): RequestContext {
  const ctx = {
    db: services.db,
    config: services.config,
    viewer,
    loaders: new Loaders(services.db),
    now: services.now ?? (() => new Date()),
  } as RequestContext;
  ctx.authz = new Authz(ctx);
  return ctx;
}

/** Authenticates the request's bearer token; throws UNAUTHENTICATED for a bad one. */
export async function createRequestContext(services: AppServices, request: Request): Promise<RequestContext> {
  const viewer = await authenticate(services.db, request.headers.get('authorization'));
  return createContext(services, viewer);
}
