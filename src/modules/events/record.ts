import { and, eq, or, sql, type SQL } from 'drizzle-orm';
import type { JobSender } from '../../context/request-context';
import type { Db } from '../../db/client';
import { newId } from '../../lib/ids';
import { integrationEvents, type IntegrationEventRow } from '../../db/schema/integration-events';
import { integrationInstallations } from '../../db/schema/installations';

/** The queue task that delivers one recorded event (src/modules/events/deliver.ts). */
export const DELIVER_TASK = 'integration-deliver';

export interface EventScope {
  organizationId: string;
  spaceId?: string;
  siteId?: string;
}

/** The integration and installation an event is for, and the space or site it concerns. */
export interface EventTarget {
  integrationId: string;
  installationId: string | null;
  spaceId?: string;
  siteId?: string;
}

/**
 * Records one event for one installation (the spec `Event` JSON as `payload`, `pending`) and
 * queues its delivery. The job is sent after the insert: the task finds the row.
 */
export async function recordEvent(
  db: Db,
  jobs: JobSender,
  target: EventTarget,
  body: Record<string, unknown> & { type: string },
): Promise<string> {
  const values = eventValues(target, body);
  await db.insert(integrationEvents).values(values);
  await jobs.send(DELIVER_TASK, { eventId: values.id }).catch(() => undefined);
  return values.id;
}

/** Records an event its caller delivers at once (render, fetch): the row as stored, ready for `deliverLoaded`. */
export async function recordInlineEvent(db: Db, target: EventTarget, body: Record<string, unknown> & { type: string }): Promise<IntegrationEventRow> {
  const [row] = await db.insert(integrationEvents).values(eventValues(target, body)).returning();
  return row!;
}

function eventValues(target: EventTarget, body: Record<string, unknown> & { type: string }) {
  const id = newId();
  // The spec's UIRenderEvent is one of a space, site or installation event, and a space event is an
  // installation event too: only a payload without spaceId or siteId matches exactly one. Its
  // context names the space anyway.
  const scoped = body.type !== 'ui_render';
  const payload = {
    eventId: id,
    ...(target.installationId ? { installationId: target.installationId } : {}),
    ...(scoped && target.spaceId ? { spaceId: target.spaceId } : {}),
    ...(scoped && target.siteId ? { siteId: target.siteId } : {}),
    ...body,
  };
  return { id, integrationId: target.integrationId, installationId: target.installationId, spaceId: target.spaceId ?? null, siteId: target.siteId ?? null, type: body.type, payload };
}

/** Installations given the space or site (all of them, or this one among those selected); no condition without either. */
export function installationGiven(scope: { spaceId?: string; siteId?: string }): SQL | undefined {
  const i = integrationInstallations;
  if (scope.spaceId) return or(eq(i.spaceSelection, 'all'), sql`exists (select 1 from integration_space_installations s where s.installation_id = ${i.id} and s.space_id = ${scope.spaceId})`);
  if (scope.siteId) return or(eq(i.siteSelection, 'all'), sql`exists (select 1 from integration_site_installations s where s.installation_id = ${i.id} and s.site_id = ${scope.siteId})`);
  return undefined;
}

/**
 * The fan-out of a space or site event: one event per active installation concerned (those given
 * the space or site, or all of the organization's). One statement on the organization's index
 * when nothing is installed there, which is the common case.
 */
export async function emitIntegrationEvent(db: Db, jobs: JobSender, scope: EventScope, body: Record<string, unknown> & { type: string }): Promise<number> {
  const i = integrationInstallations;
  const rows = await db
    .select({ id: i.id, integrationId: i.integrationId })
    .from(i)
    .where(and(eq(i.organizationId, scope.organizationId), eq(i.status, 'active'), installationGiven(scope)));
  for (const row of rows) await recordEvent(db, jobs, { integrationId: row.integrationId, installationId: row.id, spaceId: scope.spaceId, siteId: scope.siteId }, body);
  return rows.length;
}
