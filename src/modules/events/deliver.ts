import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { TaskDefinition } from '../../jobs/job';
import { deliverEvent, type DeliveryResult, type DeliveryTarget } from '../../runtime/deliver';
import { decryptSecrets, issueToken, readStoredFile } from '../integrations/service';
import { integrationEvents, type IntegrationEventLog, type IntegrationEventRow } from '../../db/schema/integration-events';
import { integrationInstallations, integrationSiteInstallations, integrationSpaceInstallations, type InstallationRow, type SiteInstallationRow, type SpaceInstallationRow } from '../../db/schema/installations';
import { integrations, type IntegrationRow } from '../../db/schema/integrations';
import { presentEnvironmentSubjects, type DeliveryContext } from './environment';
import { DELIVER_TASK } from './record';

export type { DeliveryContext } from './environment';

const MAX_ATTEMPTS = 3;

/** What `createIntegration()` of @gitbook/runtime answers for an event type without a handler. */
const NOT_HANDLED = 406;

function logLine(line: string, at: Date): IntegrationEventLog {
  const m = /^\[(debug|info|warn|error|log|quire)\]\s?(.*)$/s.exec(line);
  const level = m?.[1] === 'warn' || m?.[1] === 'error' || m?.[1] === 'debug' ? m[1] : 'info';
  return { message: m ? m[2]! : line, timestamp: at.toISOString(), level };
}


/** For deliveries whose answer goes back to a caller (render, fetch). */
export interface InlineDelivery {
  /** Refuses an answer the integration gave, with the reason (a render that is not a ContentKit tree). */
  check?: (result: DeliveryResult) => string | null;
  /** The body of the HTTP request a `fetch` event stands for; not stored with the event. */
  fetchBody?: Uint8Array;
  /** Time for this delivery when the caller cannot wait the runtime's usual deadline (a page being served). */
  deadlineMs?: number;
}

export interface Delivered {
  result: DeliveryResult;
  /** The integration has no handler for this event type: done, not a failure, never retried. */
  notHandled: boolean;
  /** Tries so far, this one included. */
  attempts: number;
}

/** A recorded event with the integration and installation it is for, as loaded by whoever recorded it. */
export interface LoadedEvent {
  event: IntegrationEventRow;
  integration: IntegrationRow;
  installation: InstallationRow | undefined;
}

/** Delivers one recorded event by id (the queue task). Null when the event is gone or already delivered. */
export async function deliverRecorded(ctx: DeliveryContext, eventId: string): Promise<Delivered | null> {
  const [event] = await ctx.db.select().from(integrationEvents).where(eq(integrationEvents.id, eventId));
  if (!event || event.status === 'success' || event.status === 'not_handled') return null;
  const [integration] = await ctx.db.select().from(integrations).where(eq(integrations.id, event.integrationId));
  const [installation] = event.installationId ? await ctx.db.select().from(integrationInstallations).where(eq(integrationInstallations.id, event.installationId)) : [];
  if (!integration) return null;
  return deliverLoaded(ctx, { event, integration, installation });
}

/**
 * Delivers one recorded event to its integration: the dev tunnel when dev mode covers the
 * installation, the published script otherwise, with fresh tokens in the environment. The outcome
 * and the trace are written on the event; an answer `check` refuses fails it with that reason.
 */
export async function deliverLoaded(ctx: DeliveryContext, { event, integration, installation }: LoadedEvent, options: InlineDelivery = {}): Promise<Delivered> {
  const { check, fetchBody, deadlineMs } = options;
  const tunnel = integration.devTunnelUrl && (integration.devAll || installation?.organizationId === integration.ownerId);
  const script = tunnel ? null : await readStoredFile(ctx.db, integration.scriptBlob);
  const target: DeliveryTarget | null = tunnel
    ? { kind: 'tunnel', url: integration.devTunnelUrl!, signingSecret: integration.signingSecret }
    : script
      ? { kind: 'script', integrationId: integration.id, version: integration.version, script: script.toString('utf8') }
      : null;
  const expires = new Date(ctx.now().getTime() + 3600_000);
  const integrationToken = await issueToken(ctx.db, integration.id, null, expires);
  const environment = {
    apiEndpoint: ctx.config.publicUrl,
    apiTokens: {
      integration: integrationToken,
      ...(installation ? { installation: await issueToken(ctx.db, integration.id, installation.id, expires) } : {}),
    },
    ...(await presentEnvironmentSubjects(ctx, { integration, integrationToken, ...(installation ? { installation } : {}), ...(installation ? await contentInstallation(ctx.db, event) : {}) })),
    secrets: await decryptSecrets(ctx.db, integration.secrets),
    signingSecrets: { integration: integration.signingSecret },
  };
  let result: DeliveryResult = target
    ? await deliverEvent(target, event.payload, environment, { allowHosts: ctx.config.fetchAllowHosts ?? [], apiBaseUrl: ctx.config.publicUrl, ...(fetchBody !== undefined ? { fetchBody } : {}), ...(deadlineMs !== undefined ? { deadlineMs } : {}) })
    : { ok: false, status: 0, logs: [], error: 'no runtime available: the script bundle is missing', durationMs: 0 };
  const refused = result.ok && check ? check(result) : null;
  if (refused) result = { ...result, ok: false, error: refused };
  // An answer an inline caller waits for (fetch, render) is that caller's business, whatever its status.
  const notHandled = !result.ok && !check && event.type !== 'fetch' && result.failure === 'status' && result.status === NOT_HANDLED;
  const now = ctx.now();
  const outcome = result.ok ? [] : notHandled ? [logLine(`[info] not handled: the integration has no handler for "${event.type}" events`, now)] : [logLine(`[error] ${result.error ?? 'delivery failed'}`, now)];
  const logs = [...event.logs, ...result.logs.map((l) => logLine(l, now)), ...outcome];
  const failed = !result.ok && !notHandled;
  await ctx.db
    .update(integrationEvents)
    .set({ status: result.ok ? 'success' : notHandled ? 'not_handled' : 'failed', logs, attempts: sql`${integrationEvents.attempts} + 1`, error: failed ? (result.error ?? 'delivery failed') : null, updatedAt: now })
    .where(eq(integrationEvents.id, event.id));
  return { result, notHandled, attempts: event.attempts + 1 };
}

/** The space or site installation an event concerns, for the environment's `spaceInstallation` / `siteInstallation`. */
async function contentInstallation(db: Db, event: IntegrationEventRow): Promise<{ spaceInstallation?: SpaceInstallationRow; siteInstallation?: SiteInstallationRow }> {
  if (!event.installationId) return {};
  if (event.spaceId) {
    const s = integrationSpaceInstallations;
    const [row] = await db.select().from(s).where(and(eq(s.installationId, event.installationId), eq(s.spaceId, event.spaceId)));
    return row ? { spaceInstallation: row } : {};
  }
  if (event.siteId) {
    const s = integrationSiteInstallations;
    const [row] = await db.select().from(s).where(and(eq(s.installationId, event.installationId), eq(s.siteId, event.siteId)));
    return row ? { siteInstallation: row } : {};
  }
  return {};
}

/** The queue task: one delivery per try; a failure is retried (with backoff) up to three tries. */
export const deliverTask: TaskDefinition<{ eventId: string }> = {
  name: DELIVER_TASK,
  retry: { limit: MAX_ATTEMPTS - 1, delaySeconds: 1, backoff: true },
  expireInSeconds: 120,
  concurrency: 4,
  async run(ctx, { eventId }) {
    const delivered = await deliverRecorded(ctx, eventId);
    if (delivered && !delivered.result.ok && !delivered.notHandled && delivered.attempts < MAX_ATTEMPTS) throw new Error(`Delivery of event ${eventId} failed: ${delivered.result.error}`);
  },
};
