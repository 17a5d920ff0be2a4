import { DEFAULT_HTTP_SETTINGS, type Config } from '../config/config';
import type { Db } from '../db/client';
import { createLoaders } from '../db/loader';
import type { JobSender, Notifications, RequestContext, Viewer } from '../context/request-context';
import { WorkBounds } from '../context/work-bounds';
import { ServiceUnavailableError } from '../domain/errors';
import { annotateRequest } from '../lib/log';
import { authenticate } from './authenticate';
import { Authz } from './authz';
import { assertSiteTokenReach } from './site-token-reach';
import type { RateLimiter } from './rate-limits';
import type { SessionCache } from './sessions';

/** What the app is built from: the database, the settings, the clock and the session cache. */
export interface AppServices {
  db: Db;
  config: Config;
  now?: () => Date;
  /** Without one, every request authenticates against the database. */
  sessions?: SessionCache;
  /** Without one, requests are not limited. */
  rateLimiter?: RateLimiter;
  /** Without one (the command line, most tests), actions that send a job answer 503. */
  jobs?: JobSender;
  /** Without one, subscriptions answer that live updates are not available. */
  notifications?: Notifications;
}

const notRunning = (name: string) => new ServiceUnavailableError(`The job queue is not running on this server, so "${name}" cannot be queued`);
const NO_JOB_QUEUE: JobSender = {
  send: (name) => Promise.reject(notRunning(name)),
  assertRunning: (name) => {
    throw notRunning(name);
  },
};

/**
 * A context for `viewer`. `signal` aborts when nobody waits for the answer any more: the work
 * done for it then stops (see WorkBounds).
 */
export function createContext(services: AppServices, viewer: Viewer | null, signal?: AbortSignal): RequestContext {
  const bounds = new WorkBounds(services.config.http?.maxResponseBytes ?? DEFAULT_HTTP_SETTINGS.maxResponseBytes, signal);
  const ctx = {
    db: services.db,
    config: services.config,
    viewer,
    loaders: createLoaders(services.db, bounds),
    now: services.now ?? (() => new Date()),
    sessions: services.sessions,
    jobs: services.jobs ?? NO_JOB_QUEUE,
    notifications: services.notifications,
    signal,
    bounds,
  } as RequestContext;
  ctx.authz = new Authz(ctx);
  return ctx;
}

/**
 * Authenticates the request's bearer token; throws UNAUTHENTICATED for a bad one, and
 * RATE_LIMITED when the caller (its token, or `clientIp` without one) is over its limit. `signal`
 * (the request's own by default) aborts when nobody waits for the answer any more.
 */
export async function createRequestContext(services: AppServices, request: Request, clientIp = 'unknown', signal: AbortSignal = request.signal): Promise<RequestContext> {
  const header = request.headers.get('authorization');
  const clock = services.now ?? (() => new Date());
  const viewer = () => authenticate(services.db, header, services.sessions, clock);
  const limiter = services.rateLimiter;
  const who = await (limiter ? limiter.admit(header, clientIp, viewer) : viewer());
  annotateRequest({ callerId: who?.user.id });
  if (who?.site) assertSiteTokenReach(who.site, request.method, new URL(request.url).pathname);
  const ctx = createContext(services, who, signal);
  // Same signal: the work done for a renewed subscription still stops when its caller goes away.
  ctx.refresh = async () => createContext(services, await authenticate(services.db, header, services.sessions, clock), signal);
  return ctx;
}
