import { and, eq, sql } from 'drizzle-orm';
import { byTimeThenId, keysetPage } from '../../db/keyset';
import { requireViewer, type RequestContext } from '../../context/request-context';
import { ConflictError, NotFoundError, ValidationError } from '../../domain/errors';
import type { Page, PageArgs } from '../../domain/page';
import { parseInput } from '../../domain/validate';
import { newId } from '../../lib/ids';
import { contentInstallationUpdateSchema, installationUpdateSchema, installSchema, spaceInstallSchema, type ContentInstallationUpdateInput, type InstallationUpdateInput, type InstallInput } from '../integrations/input';
import { recordEvent } from '../integrations/queries';
import { getIntegration } from '../integrations/service';
import { integrationEvents, integrationInstallations, integrationSiteInstallations, integrationSpaceInstallations, type InstallationRow, type IntegrationEventRow, type IntegrationRow, type SiteInstallationRow, type SpaceInstallationRow } from '../integrations/table';
import { getOrganization } from '../organizations/service';
import { getSpace } from '../spaces/service';
import { issueToken } from './tokens';

export { deliverTask } from './deliver';
export { deliverFetch, renderIntegrationUI, type EndpointAnswer } from './inline-events';

/*
 * Installations of integrations on organizations, and the spaces and sites they are given. Each
 * change is an event (`installation_setup`, `space_installation_deleted`, ...) recorded for the
 * installation and delivered through the queue.
 */

const missing = () => new NotFoundError('Integration installation');

/** An installation of the integration the caller may see; anything else is NOT_FOUND. */
export async function getInstallation(ctx: RequestContext, name: string, installationId: string): Promise<{ integration: IntegrationRow; installation: InstallationRow }> {
  const integration = await getIntegration(ctx, name);
  const [installation] = await ctx.db
    .select()
    .from(integrationInstallations)
    .where(and(eq(integrationInstallations.id, installationId), eq(integrationInstallations.integrationId, integration.id)));
  if (!installation || !(await ctx.authz.can('installation:view', installation))) throw missing();
  return { integration, installation };
}

/** Installs the integration on an organization: its admins only; a private one only by its owner. */
export async function installIntegration(ctx: RequestContext, name: string, input: InstallInput): Promise<InstallationRow> {
  const integration = await getIntegration(ctx, name);
  const body = parseInput(installSchema, input);
  const org = await getOrganization(ctx, body.organization);
  await ctx.authz.assert('organization:admin', org, 'Only organization admins can install integrations');
  if (integration.visibility === 'private' && integration.ownerId !== org.id) throw new ValidationError('organization: a private integration can be installed only on its owner organization', ['organization']);
  const [row] = await ctx.db
    .insert(integrationInstallations)
    .values({ id: newId(), integrationId: integration.id, organizationId: org.id, createdAt: ctx.now(), updatedAt: ctx.now() })
    .onConflictDoNothing()
    .returning();
  if (!row) throw new ConflictError('The integration is already installed on this organization');
  await recordEvent(ctx.db, ctx.jobs, { integrationId: integration.id, installationId: row.id }, { type: 'installation_setup', status: row.status });
  return row;
}

/** The integration's installations across organizations: its owner's admins and its own token. */
export async function listInstallations(ctx: RequestContext, name: string, externalId: string | undefined, args: PageArgs, max: number): Promise<Page<InstallationRow>> {
  const integration = await getIntegration(ctx, name);
  await ctx.authz.assert('integration:operate', integration, 'Only the integration and its owner admins can list its installations');
  const i = integrationInstallations;
  const where = and(eq(i.integrationId, integration.id), externalId ? sql`${externalId} = any(${i.externalIds})` : undefined);
  return keysetPage<InstallationRow>(ctx.db, { table: i, where, keys: byTimeThenId(i.createdAt, (r) => r.createdAt, i.id), direction: 'desc' }, args, max);
}

export async function updateInstallation(ctx: RequestContext, name: string, installationId: string, input: InstallationUpdateInput): Promise<InstallationRow> {
  const { integration, installation } = await getInstallation(ctx, name, installationId);
  await ctx.authz.assert('installation:manage', installation, 'Only organization admins can configure this installation');
  const body = parseInput(installationUpdateSchema, input);
  const [row] = await ctx.db
    .update(integrationInstallations)
    .set({
      ...(body.externalIds ? { externalIds: body.externalIds } : {}),
      ...(body.configuration ? { configuration: body.configuration } : {}),
      ...(body.space_selection ? { spaceSelection: body.space_selection as 'all' | 'selected' } : {}),
      ...(body.site_selection ? { siteSelection: body.site_selection as 'all' | 'selected' } : {}),
      updatedAt: ctx.now(),
    })
    .where(eq(integrationInstallations.id, installation.id))
    .returning();
  await recordEvent(ctx.db, ctx.jobs, { integrationId: integration.id, installationId: installation.id }, { type: 'installation_setup', status: row!.status, previous: { status: installation.status, configuration: installation.configuration } });
  return row!;
}

export async function uninstallIntegration(ctx: RequestContext, name: string, installationId: string): Promise<void> {
  const { integration, installation } = await getInstallation(ctx, name, installationId);
  await ctx.authz.assert('installation:manage', installation, 'Only organization admins can uninstall this integration');
  await recordEvent(ctx.db, ctx.jobs, { integrationId: integration.id, installationId: installation.id }, { type: 'installation_deleted', previous: { configuration: installation.configuration } });
  await ctx.db.delete(integrationInstallations).where(eq(integrationInstallations.id, installation.id));
}

/** Gives the installation a space of its organization the caller can see. */
export async function installOnSpace(ctx: RequestContext, name: string, installationId: string, input: { space?: unknown }): Promise<SpaceInstallationRow> {
  const { integration, installation } = await getInstallation(ctx, name, installationId);
  await ctx.authz.assert('installation:manage', installation, 'Only organization admins can choose the spaces of this installation');
  const body = parseInput(spaceInstallSchema, input);
  const space = await getSpace(ctx, body.space).catch((e) => (e instanceof NotFoundError ? null : Promise.reject(e)));
  if (!space || space.organizationId !== installation.organizationId) throw new ValidationError(`space: there is no space ${body.space} in this organization`, ['space']);
  const [row] = await ctx.db
    .insert(integrationSpaceInstallations)
    .values({ id: newId(), installationId: installation.id, integrationId: integration.id, spaceId: space.id, createdAt: ctx.now(), updatedAt: ctx.now() })
    .onConflictDoNothing()
    .returning();
  if (!row) throw new ConflictError('The integration is already installed on this space');
  await recordEvent(ctx.db, ctx.jobs, { integrationId: integration.id, installationId: installation.id, spaceId: space.id }, { type: 'space_installation_setup', status: row.status });
  return row;
}

async function spaceInstallation(ctx: RequestContext, name: string, installationId: string, spaceId: string) {
  const found = await getInstallation(ctx, name, installationId);
  const [row] = await ctx.db
    .select()
    .from(integrationSpaceInstallations)
    .where(and(eq(integrationSpaceInstallations.installationId, found.installation.id), eq(integrationSpaceInstallations.spaceId, spaceId)));
  if (!row) throw new NotFoundError('Space installation');
  return { ...found, row };
}

export async function getSpaceInstallation(ctx: RequestContext, name: string, installationId: string, spaceId: string): Promise<SpaceInstallationRow> {
  return (await spaceInstallation(ctx, name, installationId, spaceId)).row;
}

export async function updateSpaceInstallation(ctx: RequestContext, name: string, installationId: string, spaceId: string, input: ContentInstallationUpdateInput): Promise<SpaceInstallationRow> {
  const { integration, installation, row } = await spaceInstallation(ctx, name, installationId, spaceId);
  await ctx.authz.assert('installation:manage', installation, 'Only organization admins can configure this installation');
  const body = parseInput(contentInstallationUpdateSchema, input);
  const [updated] = await ctx.db
    .update(integrationSpaceInstallations)
    .set({ ...(body.externalIds ? { externalIds: body.externalIds } : {}), ...(body.configuration ? { configuration: body.configuration } : {}), updatedAt: ctx.now() })
    .where(eq(integrationSpaceInstallations.id, row.id))
    .returning();
  await recordEvent(ctx.db, ctx.jobs, { integrationId: integration.id, installationId: installation.id, spaceId }, { type: 'space_installation_setup', status: updated!.status, previous: { status: row.status, configuration: row.configuration } });
  return updated!;
}

export async function uninstallFromSpace(ctx: RequestContext, name: string, installationId: string, spaceId: string): Promise<void> {
  const { integration, installation, row } = await spaceInstallation(ctx, name, installationId, spaceId);
  await ctx.authz.assert('installation:manage', installation, 'Only organization admins can choose the spaces of this installation');
  await ctx.db.delete(integrationSpaceInstallations).where(eq(integrationSpaceInstallations.id, row.id));
  await recordEvent(ctx.db, ctx.jobs, { integrationId: integration.id, installationId: installation.id, spaceId }, { type: 'space_installation_deleted', previous: { configuration: row.configuration } });
}

/** The integration's space installations (`GET .../spaces`); the integration and its owner admins. */
export async function listSpaceInstallations(ctx: RequestContext, name: string, externalId: string | undefined, args: PageArgs, max: number): Promise<Page<SpaceInstallationRow>> {
  const integration = await getIntegration(ctx, name);
  await ctx.authz.assert('integration:operate', integration, 'Only the integration and its owner admins can list its installations');
  const s = integrationSpaceInstallations;
  const where = and(eq(s.integrationId, integration.id), externalId ? sql`${externalId} = any(${s.externalIds})` : undefined);
  return keysetPage<SpaceInstallationRow>(ctx.db, { table: s, where, keys: byTimeThenId(s.createdAt, (r) => r.createdAt, s.id), direction: 'desc' }, args, max);
}

export async function listSiteInstallations(ctx: RequestContext, name: string, externalId: string | undefined, args: PageArgs, max: number): Promise<Page<SiteInstallationRow>> {
  const integration = await getIntegration(ctx, name);
  await ctx.authz.assert('integration:operate', integration, 'Only the integration and its owner admins can list its installations');
  const s = integrationSiteInstallations;
  const where = and(eq(s.integrationId, integration.id), externalId ? sql`${externalId} = any(${s.externalIds})` : undefined);
  return keysetPage<SiteInstallationRow>(ctx.db, { table: s, where, keys: byTimeThenId(s.createdAt, (r) => r.createdAt, s.id), direction: 'desc' }, args, max);
}

/** The integration's events, newest first: the integration and its owner admins. */
export async function listEvents(ctx: RequestContext, name: string, args: PageArgs, max: number): Promise<Page<IntegrationEventRow>> {
  const integration = await getIntegration(ctx, name);
  await ctx.authz.assert('integration:operate', integration, 'Only the integration and its owner admins can read its events');
  const e = integrationEvents;
  return keysetPage<IntegrationEventRow>(ctx.db, { table: e, where: eq(e.integrationId, integration.id), keys: byTimeThenId(e.createdAt, (r) => r.createdAt, e.id), direction: 'desc' }, args, max);
}

export async function getEvent(ctx: RequestContext, name: string, eventId: string): Promise<IntegrationEventRow> {
  const integration = await getIntegration(ctx, name);
  await ctx.authz.assert('integration:operate', integration, 'Only the integration and its owner admins can read its events');
  const [row] = await ctx.db.select().from(integrationEvents).where(and(eq(integrationEvents.id, eventId), eq(integrationEvents.integrationId, integration.id)));
  if (!row) throw new NotFoundError('Integration event');
  return row;
}

/** A new installation token (`POST .../installations/{id}/tokens`): for the integration's own token and owner admins. */
export async function createInstallationToken(ctx: RequestContext, name: string, installationId: string): Promise<{ token: string }> {
  requireViewer(ctx);
  const { integration, installation } = await getInstallation(ctx, name, installationId);
  await ctx.authz.assert('integration:operate', integration, 'Only the integration can create installation tokens');
  return { token: await issueToken(ctx.db, integration.id, installation.id, new Date(ctx.now().getTime() + 3600_000)) };
}
