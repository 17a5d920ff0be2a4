import { and, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { anyOf } from '../../db/any';
import { byTimeThenId, keysetPage, keysetPages } from '../../db/keyset';
import { requireViewer, type RequestContext } from '../../context/request-context';
import { ConflictError, NotFoundError, ValidationError } from '../../domain/errors';
import { mapPage, type Page, type PageArgs } from '../../domain/page';
import { parseInput } from '../../domain/validate';
import { newId } from '../../lib/ids';
import {
  contentInstallationUpdateSchema, installationSpacesSchema, installationUpdateSchema, installSchema, spaceInstallSchema,
  type ContentInstallationUpdateInput, type InstallationSpacesInput, type InstallationUpdateInput, type InstallInput,
} from './input';
import { eventById, installationById } from './loaders';
import { recordEvent } from '../events/service';
import { getIntegration, getIntegrationById, integrationById, issueToken } from '../integrations/service';
import { integrationEvents, type IntegrationEventLog, type IntegrationEventRow } from '../../db/schema/integration-events';
import { integrationInstallations, integrationSiteInstallations, integrationSpaceInstallations, type InstallationRow, type SiteInstallationRow, type SpaceInstallationRow } from '../../db/schema/installations';
import { type IntegrationRow } from '../../db/schema/integrations';
import { organizationMembers } from '../../db/schema/members';
import type { OrganizationRow } from '../../db/schema/organizations';
import { getOrganization } from '../organizations/service';
import { getSpace, spaceById } from '../spaces/service';
import { spaces, type SpaceRow } from '../../db/schema/spaces';
import { findSiteInstallation, sitesOfInstallation, sitesOfInstallations, spacesOfInstallation, spacesOfInstallations, type FoundInstallation } from './site-installations';

export { deliverTask, deliverFetch, type EndpointAnswer } from '../events/service';
export { renderIntegrationRequest, renderIntegrationUI, renderIntegrationUIPosted } from './render';
export { findSiteInstallation, installIntegrationOnSite, sitesOfInstallation, spacesOfInstallation, uninstallIntegrationFromSite, updateIntegrationSiteInstallation, type FoundInstallation } from './site-installations';

export async function getSiteInstallation(ctx: RequestContext, name: string, installationId: string, siteId: string): Promise<SiteInstallationRow> {
  return findSiteInstallation(ctx, await getInstallation(ctx, name, installationId), siteId);
}

/** The sites an installation was given; whoever may see the installation. */
export async function listInstallationSites(ctx: RequestContext, name: string, installationId: string, args: PageArgs, max: number): Promise<Page<SiteInstallationRow>> {
  return sitesOfInstallation(ctx, await getInstallation(ctx, name, installationId), args, max);
}

/** The spaces an installation was given; whoever may see the installation. */
export async function listInstallationSpaces(ctx: RequestContext, name: string, installationId: string, args: PageArgs, max: number): Promise<Page<SpaceInstallationRow>> {
  return spacesOfInstallation(ctx, await getInstallation(ctx, name, installationId), args, max);
}

/*
 * Installations of integrations on organizations, and the spaces and sites they are given. Each
 * change is an event (`installation_setup`, `space_installation_deleted`, ...) recorded for the
 * installation and delivered through the queue.
 */

const missing = () => new NotFoundError('Integration installation');

/**
 * Whether the caller sees an installation of an integration it sees: members of the organization it
 * is installed on (`installation:view`), and those who operate the integration, who list them all.
 */
async function seesInstallation(ctx: RequestContext, integration: IntegrationRow, installation: InstallationRow): Promise<boolean> {
  return (await ctx.authz.can('installation:view', installation)) || ctx.authz.can('integration:operate', integration);
}

/** An installation of the integration the caller may see; anything else is NOT_FOUND. */
export async function getInstallation(ctx: RequestContext, name: string, installationId: string): Promise<FoundInstallation> {
  const integration = await getIntegration(ctx, name);
  const [installation] = await ctx.db
    .select()
    .from(integrationInstallations)
    .where(and(eq(integrationInstallations.id, installationId), eq(integrationInstallations.integrationId, integration.id)));
  if (!installation || !(await seesInstallation(ctx, integration, installation))) throw missing();
  return { integration, installation };
}

/** An installation by id alone (GraphQL's node lookup), with its integration; NOT_FOUND unless both are visible. Batched per request. */
export async function getInstallationById(ctx: RequestContext, id: string): Promise<FoundInstallation> {
  requireViewer(ctx);
  const installation = await installationById(ctx).load(id);
  const integration = installation && (await getIntegrationById(ctx, installation.integrationId).catch((e) => (e instanceof NotFoundError ? null : Promise.reject(e))));
  if (!installation || !integration || !(await seesInstallation(ctx, integration, installation))) throw missing();
  return { integration, installation };
}

/** Installs the integration on an organization: its admins only; a private one only by its owner. */
export async function installIntegration(ctx: RequestContext, integration: IntegrationRow, input: InstallInput): Promise<InstallationRow> {
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

export async function updateInstallation(ctx: RequestContext, { integration, installation }: FoundInstallation, input: InstallationUpdateInput): Promise<InstallationRow> {
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

export async function uninstallIntegration(ctx: RequestContext, { integration, installation }: FoundInstallation): Promise<void> {
  await ctx.authz.assert('installation:manage', installation, 'Only organization admins can uninstall this integration');
  await recordEvent(ctx.db, ctx.jobs, { integrationId: integration.id, installationId: installation.id }, { type: 'installation_deleted', previous: { configuration: installation.configuration } });
  await ctx.db.delete(integrationInstallations).where(eq(integrationInstallations.id, installation.id));
}

/** Gives the installation a space of its organization the caller can see. */
export async function installOnSpace(ctx: RequestContext, { integration, installation }: FoundInstallation, input: { space?: unknown }): Promise<SpaceInstallationRow> {
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

/** One space an installation was given; NOT_FOUND when it was not given that space. */
export async function findSpaceInstallation(ctx: RequestContext, found: FoundInstallation, spaceId: string): Promise<SpaceInstallationRow> {
  const [row] = await ctx.db
    .select()
    .from(integrationSpaceInstallations)
    .where(and(eq(integrationSpaceInstallations.installationId, found.installation.id), eq(integrationSpaceInstallations.spaceId, spaceId)));
  if (!row) throw new NotFoundError('Space installation');
  return row;
}

export async function getSpaceInstallation(ctx: RequestContext, name: string, installationId: string, spaceId: string): Promise<SpaceInstallationRow> {
  return findSpaceInstallation(ctx, await getInstallation(ctx, name, installationId), spaceId);
}

/** Changes what the installation keeps for one of its spaces; a space it was not given is NOT_FOUND. */
export async function updateSpaceInstallation(ctx: RequestContext, found: FoundInstallation, spaceId: string, input: ContentInstallationUpdateInput): Promise<SpaceInstallationRow> {
  const { integration, installation } = found;
  const row = await findSpaceInstallation(ctx, found, spaceId);
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

export async function uninstallFromSpace(ctx: RequestContext, found: FoundInstallation, spaceId: string): Promise<void> {
  const { integration, installation } = found;
  const row = await findSpaceInstallation(ctx, found, spaceId);
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
export async function createInstallationToken(ctx: RequestContext, { integration, installation }: FoundInstallation): Promise<{ token: string }> {
  await ctx.authz.assert('integration:operate', integration, 'Only the integration can create installation tokens');
  return { token: await issueToken(ctx.db, integration.id, installation.id, new Date(ctx.now().getTime() + 3600_000)) };
}

type SpaceChange = { added: SpaceInstallationRow[]; removed: SpaceInstallationRow[] };

/**
 * Gives the installation exactly this set of spaces (GraphQL's `integrationInstallationSpacesSet`):
 * spaces missing are added and spaces left out taken away, each change recorded as an event, as
 * the REST operations on one space do. Every space must be one of the installation's organization
 * that the caller sees; one that is not refuses the whole set and nothing changes.
 */
export async function setInstallationSpaces(ctx: RequestContext, { integration, installation }: FoundInstallation, input: InstallationSpacesInput): Promise<InstallationRow> {
  await ctx.authz.assert('installation:manage', installation, 'Only organization admins can choose the spaces of this installation');
  const body = parseInput(installationSpacesSchema, input);
  const wanted = [...new Set(body.spaces)];
  const found = await Promise.all(wanted.map((id) => getSpace(ctx, id).catch((e) => (e instanceof NotFoundError ? null : Promise.reject(e)))));
  const bad = found.findIndex((space) => !space || space.organizationId !== installation.organizationId);
  if (bad >= 0) throw new ValidationError(`spaces: there is no space ${wanted[bad]} in this organization`, ['spaces', String(body.spaces.indexOf(wanted[bad]!))]);
  const s = integrationSpaceInstallations;
  const change = await ctx.db.transaction(async (tx): Promise<SpaceChange> => {
    const current = await tx.select().from(s).where(eq(s.installationId, installation.id));
    const removed = current.filter((row) => !wanted.includes(row.spaceId));
    if (removed.length) await tx.delete(s).where(anyOf(s.id, removed.map((row) => row.id)));
    const given = new Set(current.map((row) => row.spaceId));
    const fresh = wanted.filter((spaceId) => !given.has(spaceId)).map((spaceId) => ({ id: newId(), installationId: installation.id, integrationId: integration.id, spaceId, createdAt: ctx.now(), updatedAt: ctx.now() }));
    const added = fresh.length ? await tx.insert(s).values(fresh).onConflictDoNothing().returning() : [];
    return { added, removed };
  });
  // Events after the commit: their delivery jobs must find them.
  const target = (spaceId: string) => ({ integrationId: integration.id, installationId: installation.id, spaceId });
  for (const row of change.removed) await recordEvent(ctx.db, ctx.jobs, target(row.spaceId), { type: 'space_installation_deleted', previous: { configuration: row.configuration } });
  for (const row of change.added) await recordEvent(ctx.db, ctx.jobs, target(row.spaceId), { type: 'space_installation_setup', status: row.status });
  return installation;
}

/*
 * For GraphQL, lists that reach past one integration: the installations and events of many
 * integrations, the installations of organizations, the spaces of installations, each in one
 * statement for all parents. What the caller sees follows the same policies as one installation.
 */

/** The organizations the caller belongs to (an installation token: the one it is installed on), where the installations it may see are. */
async function viewerOrganizationIds(ctx: RequestContext): Promise<string[]> {
  const viewer = requireViewer(ctx);
  if (viewer.grant) return viewer.grant.organizationId ? [viewer.grant.organizationId] : [];
  if (viewer.memberships) return [...viewer.memberships.keys()];
  const rows = await ctx.db.select({ id: organizationMembers.organizationId }).from(organizationMembers).where(eq(organizationMembers.userId, viewer.user.id));
  return rows.map((row) => row.id);
}

/** Of a list's rows, those of the integrations operated and those of the installations seen. */
interface Seen {
  operated: string[];
  installations: string[];
}

function seenWhere(seen: Seen, integrationColumn: PgColumn, installationColumn: PgColumn): SQL {
  return or(seen.operated.length ? anyOf(integrationColumn, seen.operated) : undefined, seen.installations.length ? anyOf(installationColumn, seen.installations) : undefined) ?? sql`false`;
}

/**
 * Installations among `candidates` the caller sees, judged by the policies themselves (the
 * candidates are few: one per organization, or per integration): the integration visible, and
 * the installation too. Loaded rows are primed, so node lookups of them cost nothing more.
 */
async function seenAmong(ctx: RequestContext, candidates: readonly InstallationRow[]): Promise<InstallationRow[]> {
  const loaded = await integrationById(ctx).loadMany([...new Set(candidates.map((row) => row.integrationId))]);
  const shown = await ctx.authz.allowed('integration:view', loaded.filter((row): row is IntegrationRow => row !== null && !(row instanceof Error)));
  const byId = new Map(shown.map((row) => [row.id, row]));
  const answers = await Promise.all(candidates.map(async (row) => {
    const integration = byId.get(row.integrationId);
    return integration !== undefined && seesInstallation(ctx, integration, row);
  }));
  for (const row of candidates) installationById(ctx).prime(row.id, row);
  return candidates.filter((_, i) => answers[i]);
}

/** What the caller sees of these integrations: all of those it operates; of the others, the installations of its organizations it may see. */
async function seenOf(ctx: RequestContext, integrations: readonly IntegrationRow[]): Promise<Seen> {
  const operated = new Set((await ctx.authz.allowed('integration:operate', integrations)).map((row) => row.id));
  const others = integrations.filter((row) => !operated.has(row.id)).map((row) => row.id);
  const orgIds = others.length ? await viewerOrganizationIds(ctx) : [];
  const i = integrationInstallations;
  const candidates = orgIds.length ? await ctx.db.select().from(i).where(and(anyOf(i.integrationId, others), anyOf(i.organizationId, orgIds))) : [];
  return { operated: [...operated], installations: (await seenAmong(ctx, candidates)).map((row) => row.id) };
}

const newestInstallations = { table: integrationInstallations, keys: byTimeThenId<InstallationRow>(integrationInstallations.createdAt, (r) => r.createdAt, integrationInstallations.id), direction: 'desc' as const };

/** The installations of each integration the caller sees, newest first (`Integration.installations`). */
export async function listInstallationsOf(ctx: RequestContext, integrations: readonly IntegrationRow[], args: PageArgs, max: number): Promise<Map<string, Page<InstallationRow>>> {
  const i = integrationInstallations;
  const seen = await seenOf(ctx, integrations);
  return keysetPages<InstallationRow>(ctx.db, { ...newestInstallations, where: seenWhere(seen, i.integrationId, i.id), partition: i.integrationId, parentIds: integrations.map((row) => row.id), parentOf: (row) => row.integrationId }, args, max);
}

/** The events of each integration's installations the caller sees, newest first (`Integration.events`). */
export async function listEventsOf(ctx: RequestContext, integrations: readonly IntegrationRow[], args: PageArgs, max: number): Promise<Map<string, Page<IntegrationEventRow>>> {
  const e = integrationEvents;
  const seen = await seenOf(ctx, integrations);
  return keysetPages<IntegrationEventRow>(
    ctx.db,
    { table: e, keys: byTimeThenId(e.createdAt, (r) => r.createdAt, e.id), direction: 'desc', where: seenWhere(seen, e.integrationId, e.installationId), partition: e.integrationId, parentIds: integrations.map((row) => row.id), parentOf: (row) => row.integrationId },
    args,
    max,
  );
}

/** The installations on each of these organizations the caller sees, newest first (`Organization.installations`). */
export async function listOrganizationInstallations(ctx: RequestContext, orgs: readonly OrganizationRow[], args: PageArgs, max: number): Promise<Map<string, Page<InstallationRow>>> {
  const i = integrationInstallations;
  const ids = orgs.map((org) => org.id);
  const candidates = ids.length ? await ctx.db.select().from(i).where(anyOf(i.organizationId, ids)) : [];
  const seen = (await seenAmong(ctx, candidates)).map((row) => row.id);
  const where = seen.length ? anyOf(i.id, seen) : sql`false`;
  return keysetPages<InstallationRow>(ctx.db, { ...newestInstallations, where, partition: i.organizationId, parentIds: ids, parentOf: (row) => row.organizationId }, args, max);
}

/** The spaces given to each installation that the caller sees, oldest given first (`IntegrationInstallation.spaces`). */
export async function listInstallationSpacesOf(ctx: RequestContext, installations: readonly InstallationRow[], args: PageArgs, max: number): Promise<Map<string, Page<SpaceRow>>> {
  const s = integrationSpaceInstallations;
  const visible = and(isNull(spaces.deletedAt), await ctx.authz.listFilter('space', [...new Set(installations.map((row) => row.organizationId))]));
  const pages = await keysetPages<SpaceInstallationRow>(
    ctx.db,
    {
      table: s,
      keys: byTimeThenId(s.createdAt, (r) => r.createdAt, s.id),
      direction: 'asc',
      where: sql`exists (select 1 from ${spaces} where ${spaces.id} = ${s.spaceId} and ${visible})`,
      partition: s.installationId,
      parentIds: installations.map((row) => row.id),
      parentOf: (row) => row.installationId,
    },
    args,
    max,
  );
  const rows = await spaceById(ctx).loadMany([...pages.values()].flatMap((page) => page.items.map((row) => row.spaceId)));
  const byId = new Map(rows.filter((row): row is SpaceRow => row !== null && !(row instanceof Error)).map((row) => [row.id, row]));
  // The statement judged them visible: asking again costs nothing.
  for (const row of byId.values()) ctx.authz.remember('space:view', row, true);
  return new Map([...pages].map(([id, page]) => [id, mapPage(page, (row) => byId.get(row.spaceId)!)]));
}

/** What each installation the caller sees keeps for its sites (`IntegrationInstallation.siteInstallations`); one it does not see gets no page. */
export async function listSiteInstallationsOf(ctx: RequestContext, installations: readonly InstallationRow[], args: PageArgs, max: number): Promise<Map<string, Page<SiteInstallationRow>>> {
  return sitesOfInstallations(ctx, await seenAmong(ctx, installations), args, max);
}

/** The same for their spaces (`IntegrationInstallation.spaceInstallations`). */
export async function listSpaceInstallationsOf(ctx: RequestContext, installations: readonly InstallationRow[], args: PageArgs, max: number): Promise<Map<string, Page<SpaceInstallationRow>>> {
  return spacesOfInstallations(ctx, await seenAmong(ctx, installations), args, max);
}

/** One event by id (GraphQL's node lookup): for those who operate its integration, or see its installation. */
export async function getEventById(ctx: RequestContext, id: string): Promise<IntegrationEventRow> {
  requireViewer(ctx);
  const hidden = () => new NotFoundError('Integration event');
  const row = await eventById(ctx).load(id);
  const integration = row && (await getIntegrationById(ctx, row.integrationId).catch((e) => (e instanceof NotFoundError ? null : Promise.reject(e))));
  if (!row || !integration) throw hidden();
  if (await ctx.authz.can('integration:operate', integration)) return row;
  const installation = row.installationId ? await installationById(ctx).load(row.installationId) : null;
  if (!installation || !(await ctx.authz.can('installation:view', installation))) throw hidden();
  return row;
}

/** An event's trace (the script's lines, why it failed): for those who operate the integration, as over REST; null for others. */
export async function eventTrace(ctx: RequestContext, row: IntegrationEventRow): Promise<{ logs: IntegrationEventLog[]; error: string | null } | null> {
  const integration = await getIntegrationById(ctx, row.integrationId);
  return (await ctx.authz.can('integration:operate', integration)) ? { logs: row.logs, error: row.error } : null;
}
