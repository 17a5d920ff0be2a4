import type { Config } from '../config/config';
import type { Db } from '../db/client';
import type { Loaders } from '../db/loader';
import { UnauthenticatedError } from '../domain/errors';
import type { MemberRow } from '../db/schema/members';
import type { OrganizationRow } from '../db/schema/organizations';
import type { UserRow } from '../db/schema/users';
import type { Authorizer } from './actions';
import type { WorkBounds } from './work-bounds';

export interface Viewer {
  user: UserRow;
  /**
   * Every membership of the viewer, by organization id, when authentication loaded them (it
   * does): membership checks then cost no statement. Absent, they are loaded on demand. Shared
   * with the other requests of the same cached session: a write replaces the map, never changes it.
   */
  memberships?: ReadonlyMap<string, MemberRow>;
  /** The organizations of those memberships, by id, loaded with them (shared likewise). */
  organizations?: ReadonlyMap<string, OrganizationRow>;
  /**
   * Set when the token was made by an organization's single sign-on: the one organization it acts
   * in. `memberships` then hold that organization's only, and everywhere else the user is an
   * outsider (src/access-control/membership.ts).
   */
  organizationId?: string;
  /**
   * Set when the token is an integration's or an installation's: `user` is then the integration's
   * bot user, a member of nothing, and every authorization answer comes from the grant alone.
   */
  grant?: IntegrationGrant;
  /**
   * Set when the token is the short-lived API token a published site's URL lookup gave: `user` is
   * then a stand-in for the site's visitor, a member of nothing, and the token reads that site's
   * published content only (src/access-control/site-grants.ts).
   */
  site?: SiteGrant;
}

/** What a published site's API token may reach: the site, and the spaces it publishes to its visitor. */
export interface SiteGrant {
  organizationId: string;
  siteId: string;
  /** The spaces the site publishes that the visitor could open when the token was made, still in the site. */
  spaceIds: ReadonlySet<string>;
}

/** What an integration token (no installation) or an installation token may reach. */
export interface IntegrationGrant {
  kind: 'integration' | 'installation';
  integrationId: string;
  /** The installation's, for an installation token. */
  installationId?: string;
  /** The organization it is installed on, for an installation token. */
  organizationId?: string;
  /** The integration's scopes (spec `IntegrationScope`): an installation token acts with exactly these. */
  scopes: ReadonlySet<string>;
  spaceSelection: 'all' | 'selected';
  siteSelection: 'all' | 'selected';
  /** Spaces and sites the installation was given (with `selected`). */
  spaceIds: ReadonlySet<string>;
  siteIds: ReadonlySet<string>;
}

/** Tells the process's session cache that what it holds about a user or an organization changed. */
export interface SessionInvalidation {
  forgetUser(userId: string): void;
  forgetOrganization(organizationId: string): void;
}

/** Options of one job sent. */
export interface SendJobOptions {
  /** Seconds before any worker may take it. */
  startAfterSeconds?: number;
}

/**
 * The job queue as services see it (src/jobs/queue.ts implements it). A job sent inside a
 * transaction that then rolls back still runs: send after the commit, and let the job find
 * its rows (or their absence) itself.
 */
export interface JobSender {
  /** Queues one run of the task `name` for any instance's worker; answers the job's id. */
  send(name: string, data: object, options?: SendJobOptions): Promise<string>;
  /** Throws what `send` would when the task cannot be queued here: check before writing what the job is for. */
  assertRunning(name: string): void;
}

/**
 * Everything a service needs for one request, the same for GraphQL and REST. Services never see
 * the HTTP request itself. It is built by src/auth/context.ts.
 */
export interface RequestContext {
  db: Db;
  config: Config;
  viewer: Viewer | null;
  loaders: Loaders;
  authz: Authorizer;
  /** The process's session cache, told of membership writes so the next request sees them. */
  sessions?: SessionInvalidation;
  /** The clock; tests move it to cross time windows. */
  now(): Date;
  /** The job queue; without one running, sending answers 503 (see src/auth/context.ts). */
  jobs: JobSender;
  /** NOTIFY payloads of a channel, from every instance: what subscriptions are fed from. */
  notifications?: Notifications;
  /**
   * A new context for the same caller, authenticated and authorized afresh (no cached answers):
   * a long-lived subscription re-checks access with it at each event.
   */
  refresh?: () => Promise<RequestContext>;
  /**
   * Aborts when nobody waits for the answer any more: the caller went away (what ends a
   * subscription that waits for events), or the request's deadline passed.
   */
  signal?: AbortSignal;
  /** When the request's work stops: its signal aborted, or its answer grew too large. */
  bounds: WorkBounds;
}

export interface Notifications {
  subscribe(channel: string, signal?: AbortSignal): AsyncIterable<string>;
}

export function requireViewer(ctx: Pick<RequestContext, 'viewer'>): Viewer {
  if (!ctx.viewer) throw new UnauthenticatedError();
  return ctx.viewer;
}
