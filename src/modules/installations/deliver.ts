import { eq, sql } from 'drizzle-orm';
import type { TaskDefinition } from '../../jobs/job';
import { deliverEvent, type DeliveryTarget } from '../integrations/runtime/deliver';
import { decryptSecrets, readStoredFile } from '../integrations/service';
import { integrationEvents, integrationInstallations, integrations, type IntegrationEventLog } from '../integrations/table';
import { DELIVER_TASK } from '../integrations/queries';
import { issueToken } from './tokens';

const MAX_ATTEMPTS = 3;

function logLine(line: string, at: Date): IntegrationEventLog {
  const m = /^\[(debug|info|warn|error|log|quire)\]\s?(.*)$/s.exec(line);
  const level = m?.[1] === 'warn' || m?.[1] === 'error' || m?.[1] === 'debug' ? m[1] : 'info';
  return { message: m ? m[2]! : line, timestamp: at.toISOString(), level };
}

/**
 * Delivers one recorded event to its integration: the dev tunnel when dev mode covers the
 * installation, the published script otherwise, with fresh tokens in the environment. The outcome
 * and the trace are written on the event; a failure is retried (with backoff) up to three tries.
 */
export const deliverTask: TaskDefinition<{ eventId: string }> = {
  name: DELIVER_TASK,
  retry: { limit: MAX_ATTEMPTS - 1, delaySeconds: 1, backoff: true },
  expireInSeconds: 120,
  concurrency: 4,
  async run(ctx, { eventId }) {
    const [event] = await ctx.db.select().from(integrationEvents).where(eq(integrationEvents.id, eventId));
    if (!event || event.status === 'success') return;
    const [integration] = await ctx.db.select().from(integrations).where(eq(integrations.id, event.integrationId));
    const [installation] = event.installationId ? await ctx.db.select().from(integrationInstallations).where(eq(integrationInstallations.id, event.installationId)) : [];
    if (!integration) return;
    const tunnel = integration.devTunnelUrl && (integration.devAll || installation?.organizationId === integration.ownerId);
    const script = tunnel ? null : await readStoredFile(ctx.db, integration.scriptBlob);
    const target: DeliveryTarget | null = tunnel
      ? { kind: 'tunnel', url: integration.devTunnelUrl!, signingSecret: integration.signingSecret }
      : script
        ? { kind: 'script', integrationId: integration.id, version: integration.version, script: script.toString('utf8') }
        : null;
    const expires = new Date(ctx.now().getTime() + 3600_000);
    const environment = {
      apiEndpoint: ctx.config.publicUrl,
      apiTokens: {
        integration: await issueToken(ctx.db, integration.id, null, expires),
        ...(installation ? { installation: await issueToken(ctx.db, integration.id, installation.id, expires) } : {}),
      },
      integration: { name: integration.name, version: integration.version, scopes: integration.scopes, title: integration.title },
      ...(installation ? { installation: { id: installation.id, status: installation.status, configuration: installation.configuration, externalIds: installation.externalIds, target: { organization: installation.organizationId } } } : {}),
      secrets: await decryptSecrets(ctx.db, integration.secrets),
      signingSecrets: { integration: integration.signingSecret },
    };
    const result = target
      ? await deliverEvent(target, event.payload, environment, { allowHosts: ctx.config.fetchAllowHosts ?? [], apiBaseUrl: ctx.config.publicUrl })
      : { ok: false, logs: [] as string[], error: 'no runtime available: the script bundle is missing' };
    const now = ctx.now();
    const logs = [...event.logs, ...result.logs.map((l) => logLine(l, now)), ...(result.ok ? [] : [logLine(`[error] ${result.error ?? 'delivery failed'}`, now)])];
    await ctx.db
      .update(integrationEvents)
      .set({ status: result.ok ? 'success' : 'failed', logs, attempts: sql`${integrationEvents.attempts} + 1`, error: result.ok ? null : (result.error ?? 'delivery failed'), updatedAt: now })
      .where(eq(integrationEvents.id, eventId));
    if (!result.ok && event.attempts + 1 < MAX_ATTEMPTS) throw new Error(`Delivery of event ${eventId} failed: ${result.error}`);
  },
};
