import { and, eq, inArray } from 'drizzle-orm';
import { requireViewer, type RequestContext } from '../../context/request-context';
import { NotFoundError, UpstreamError, ValidationError } from '../../domain/errors';
import { validateContentKitTree, type RenderRequest } from '../../runtime/render';
import { findIntegrationForEndpoint } from '../integrations/service';
import { integrationInstallations, integrationSiteInstallations, integrationSpaceInstallations, type InstallationRow } from '../../db/schema/installations';
import { integrations, type IntegrationRow } from '../../db/schema/integrations';
import { deliverLoaded, type Delivered, type DeliveryContext } from './deliver';
import { installationGiven, recordInlineEvent } from './record';

/*
 * Events whose answer goes back to the caller at once: `ui_render` (GET .../render) and `fetch`
 * (a request to an integration's public endpoint). They are recorded with their trace like any
 * event, but delivered inline rather than through the queue, and not retried: the caller is waiting.
 */

/** Where a render happens: the installation it runs for, and the space or site it concerns. */
export interface RenderScope {
  installation: InstallationRow;
  spaceId?: string;
  siteId?: string;
}

/**
 * The active installation of the integration on an organization, given the space or site when
 * one is named (all of them, or this one among those selected).
 */
export async function activeInstallation(ctx: RequestContext, integration: IntegrationRow, organizationId: string, scope: { spaceId?: string; siteId?: string }): Promise<InstallationRow | null> {
  const i = integrationInstallations;
  const [row] = await ctx.db
    .select()
    .from(i)
    .where(and(eq(i.integrationId, integration.id), eq(i.organizationId, organizationId), eq(i.status, 'active'), installationGiven(scope)));
  return row ?? null;
}

/** The active installations on a space of the integrations named, in one statement, by integration name. */
export async function activeInstallationsOnSpace(ctx: DeliveryContext, organizationId: string, spaceId: string, names: string[]): Promise<Map<string, { integration: IntegrationRow; installation: InstallationRow }>> {
  if (!names.length) return new Map();
  const i = integrationInstallations;
  const rows = await ctx.db
    .select({ installation: i, integration: integrations })
    .from(i)
    .innerJoin(integrations, eq(integrations.id, i.integrationId))
    .where(and(inArray(integrations.name, names), eq(i.organizationId, organizationId), eq(i.status, 'active'), installationGiven({ spaceId })));
  return new Map(rows.map((r) => [r.integration.name, r]));
}

/** A ContentKit answer, with how long the integration said it may be kept (`Cache-Control: max-age`). */
export interface Rendered {
  output: Record<string, unknown>;
  /** Seconds; null when the integration said nothing. */
  maxAge: number | null;
}

/** The `max-age` of the runtime's answer (`element.setCache({ maxAge })` becomes `Cache-Control: max-age=N`). */
function maxAgeOf(headers: Record<string, string> | undefined): number | null {
  const m = /(?:^|,)\s*max-age=(\d{1,9})\s*(?:,|$)/i.exec(headers?.['cache-control'] ?? '');
  return m ? Number(m[1]) : null;
}

/**
 * Sends a `ui_render` event and checks the answer. `userId` is whose render it is: absent for a
 * published page, which no one signed in reads. A failure throws an UpstreamError naming why.
 */
async function renderEvent(ctx: DeliveryContext, integration: IntegrationRow, request: RenderRequest, scope: RenderScope, userId: string | null, deadlineMs?: number): Promise<Rendered> {
  const event = await recordInlineEvent(
    ctx.db,
    { integrationId: integration.id, installationId: scope.installation.id, ...(scope.spaceId ? { spaceId: scope.spaceId } : {}), ...(scope.siteId ? { siteId: scope.siteId } : {}) },
    {
      type: 'ui_render',
      ...(userId ? { auth: { userId } } : {}),
      componentId: request.componentId,
      props: request.props,
      ...(request.state ? { state: request.state } : {}),
      context: request.context,
      ...(request.action ? { action: request.action } : {}),
    },
  );
  let output: Record<string, unknown> | undefined;
  const delivered = await deliverLoaded(ctx, { event, integration, installation: scope.installation }, {
    check: (result) => {
      const checked = validateContentKitTree(result.response?.body ?? '');
      if (checked.valid) output = checked.output;
      return checked.valid ? null : `the integration's answer is not a ContentKit tree: ${checked.errors.slice(0, 3).join('; ')}`;
    },
    ...(deadlineMs !== undefined ? { deadlineMs } : {}),
  });
  if (!delivered.result.ok || !output) throw new UpstreamError(`The integration ${integration.name} could not render ${request.componentId}: ${delivered.result.error ?? 'no answer'}`);
  return { output, maxAge: maxAgeOf(delivered.result.response?.headers) };
}

/**
 * A render (`GET .../render`): sends a `ui_render` event to the integration (its script, or its
 * tunnel in dev mode) for the installation its context resolved to, and answers the element tree
 * it rendered. A bad request is a 400; an integration that fails, or answers
 * something other than a ContentKit tree, is a 502 naming why, and its event says so too.
 */
export async function renderIntegrationUI(ctx: RequestContext, integration: IntegrationRow, request: RenderRequest, scope: RenderScope): Promise<Rendered> {
  const viewer = requireViewer(ctx);
  return renderEvent(ctx, integration, request, scope, viewer.user.id);
}

/** A render for a published page: no one's in particular, and bounded by `deadlineMs` since a page waits on it. */
export function renderForReaders(ctx: DeliveryContext, integration: IntegrationRow, request: RenderRequest, scope: RenderScope, deadlineMs: number): Promise<Rendered> {
  return renderEvent(ctx, integration, request, scope, null, deadlineMs);
}

/** An HTTP answer of an integration, as it goes back to whoever called its public endpoint. */
export interface EndpointAnswer {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

/** Headers an integration's answer may not set on Quire's origin. */
const DROPPED = new Set(['set-cookie', 'content-length', 'transfer-encoding', 'connection', 'content-encoding']);
const METHODS = new Set(['get', 'post', 'put', 'delete']);

/** Whose public endpoint a request is for: the integration's, an installation's, or a space or site installation's. */
export interface EndpointTarget {
  name: string;
  installationId?: string;
  spaceId?: string;
  siteId?: string;
}

/**
 * A request to an integration's public endpoint (`/v1/integrations/{name}/integration/...`, an
 * installation's `.../installations/{id}/integration/...`, or a space or site installation's
 * `.../installations/{id}/spaces/{space}/integration/...`, `.../sites/{site}/integration/...`):
 * anyone may call it (webhooks, OAuth callbacks), so no token is read. It becomes a `fetch` event,
 * delivered with the request's body and the installations concerned in the environment, and the
 * integration's answer is the response.
 */
export async function deliverFetch(
  ctx: RequestContext,
  target: EndpointTarget,
  request: { method: string; url: string; headers: Record<string, string>; body: Uint8Array },
): Promise<EndpointAnswer> {
  const integration = await findIntegrationForEndpoint(ctx, target.name);
  if (!integration) throw new NotFoundError('Integration');
  let installation: InstallationRow | undefined;
  if (target.installationId) {
    [installation] = await ctx.db
      .select()
      .from(integrationInstallations)
      .where(and(eq(integrationInstallations.id, target.installationId), eq(integrationInstallations.integrationId, integration.id)));
    if (!installation) throw new NotFoundError('Integration installation');
    if (target.spaceId) {
      const s = integrationSpaceInstallations;
      const [given] = await ctx.db.select({ id: s.spaceId }).from(s).where(and(eq(s.installationId, installation.id), eq(s.spaceId, target.spaceId)));
      if (!given) throw new NotFoundError('Space installation');
    }
    if (target.siteId) {
      const s = integrationSiteInstallations;
      const [given] = await ctx.db.select({ id: s.siteId }).from(s).where(and(eq(s.installationId, installation.id), eq(s.siteId, target.siteId)));
      if (!given) throw new NotFoundError('Site installation');
    }
  }
  const method = request.method.toLowerCase();
  if (!METHODS.has(method)) throw new ValidationError(`An integration endpoint answers GET, POST, PUT and DELETE, not ${request.method}`);
  const scope = installation ? { ...(target.spaceId ? { spaceId: target.spaceId } : {}), ...(target.siteId ? { siteId: target.siteId } : {}) } : {};
  const event = await recordInlineEvent(ctx.db, { integrationId: integration.id, installationId: installation?.id ?? null, ...scope }, {
    type: 'fetch',
    request: { method, url: request.url, headers: request.headers },
  });
  // A GET carries no body part: the official runtime rebuilds the request, and a GET with a body is refused.
  const delivered = await deliverLoaded(ctx, { event, integration, installation }, request.body.length ? { fetchBody: request.body } : {});
  const response = delivered.result.response;
  if (!response) throw new UpstreamError(`The integration ${integration.name} did not answer: ${delivered.result.error ?? 'no answer'}`);
  const headers = Object.fromEntries(Object.entries(response.headers).filter(([key]) => !DROPPED.has(key)));
  return { status: response.status, headers, body: response.body };
}

/**
 * Asks a site installation for the script its published pages carry (`fetch_published_script`,
 * the spec's site event: the installation and the site). Recorded with its trace like any event;
 * `deadlineMs` bounds it, since a page waits on it.
 */
export async function deliverPublishedScript(ctx: DeliveryContext, integration: IntegrationRow, installation: InstallationRow, siteId: string, deadlineMs: number): Promise<Delivered> {
  const event = await recordInlineEvent(ctx.db, { integrationId: integration.id, installationId: installation.id, siteId }, { type: 'fetch_published_script' });
  return deliverLoaded(ctx, { event, integration, installation }, { deadlineMs });
}
