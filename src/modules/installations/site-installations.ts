import { and, eq } from 'drizzle-orm';
import type { RequestContext } from '../../context/request-context';
import { byTimeThenId, keysetPage, keysetPages } from '../../db/keyset';
import { ConflictError, NotFoundError, ValidationError } from '../../domain/errors';
import type { Page, PageArgs } from '../../domain/page';
import { parseInput } from '../../domain/validate';
import { newId } from '../../lib/ids';
import { contentInstallationUpdateSchema, siteInstallSchema, type ContentInstallationUpdateInput } from './input';
import { recordEvent } from '../events/service';
import { integrationSiteInstallations, integrationSpaceInstallations, type InstallationRow, type SiteInstallationRow, type SpaceInstallationRow } from '../../db/schema/installations';
import { type IntegrationRow } from '../../db/schema/integrations';
import { getSiteById } from '../sites/service';

/*
 * The sites an installation is given, as its spaces are: each change is a `site_installation_setup`
 * or `site_installation_deleted` event for the installation.
 */

/** An installation as `getInstallation`/`getInstallationById` resolve it, with its integration. */
export type FoundInstallation = { integration: IntegrationRow; installation: InstallationRow };

/** Gives the installation a site of its organization the caller can see. */
export async function installIntegrationOnSite(ctx: RequestContext, { integration, installation }: FoundInstallation, input: unknown): Promise<SiteInstallationRow> {
  await ctx.authz.assert('installation:manage', installation, 'Only organization admins can choose the sites of this installation');
  const body = parseInput(siteInstallSchema, input);
  const site = await getSiteById(ctx, body.siteId).catch((e) => (e instanceof NotFoundError ? null : Promise.reject(e)));
  if (!site || site.organizationId !== installation.organizationId) throw new ValidationError(`siteId: there is no site ${body.siteId} in this organization`, ['siteId']);
  const [row] = await ctx.db
    .insert(integrationSiteInstallations)
    .values({ id: newId(), installationId: installation.id, integrationId: integration.id, siteId: site.id, createdAt: ctx.now(), updatedAt: ctx.now() })
    .onConflictDoNothing()
    .returning();
  if (!row) throw new ConflictError('The integration is already installed on this site');
  await recordEvent(ctx.db, ctx.jobs, { integrationId: integration.id, installationId: installation.id, siteId: site.id }, { type: 'site_installation_setup', status: row.status });
  return row;
}

export async function findSiteInstallation(ctx: RequestContext, found: FoundInstallation, siteId: string): Promise<SiteInstallationRow> {
  const s = integrationSiteInstallations;
  const [row] = await ctx.db.select().from(s).where(and(eq(s.installationId, found.installation.id), eq(s.siteId, siteId)));
  if (!row) throw new NotFoundError('Site installation');
  return row;
}

export async function updateIntegrationSiteInstallation(ctx: RequestContext, found: FoundInstallation, siteId: string, input: ContentInstallationUpdateInput): Promise<SiteInstallationRow> {
  const row = await findSiteInstallation(ctx, found, siteId);
  await ctx.authz.assert('installation:manage', found.installation, 'Only organization admins can configure this installation');
  const body = parseInput(contentInstallationUpdateSchema, input);
  const [updated] = await ctx.db
    .update(integrationSiteInstallations)
    .set({ ...(body.externalIds ? { externalIds: body.externalIds } : {}), ...(body.configuration ? { configuration: body.configuration } : {}), updatedAt: ctx.now() })
    .where(eq(integrationSiteInstallations.id, row.id))
    .returning();
  await recordEvent(ctx.db, ctx.jobs, { integrationId: found.integration.id, installationId: found.installation.id, siteId }, { type: 'site_installation_setup', status: updated!.status, previous: { status: row.status, configuration: row.configuration } });
  return updated!;
}

export async function uninstallIntegrationFromSite(ctx: RequestContext, found: FoundInstallation, siteId: string): Promise<void> {
  const row = await findSiteInstallation(ctx, found, siteId);
  await ctx.authz.assert('installation:manage', found.installation, 'Only organization admins can choose the sites of this installation');
  await ctx.db.delete(integrationSiteInstallations).where(eq(integrationSiteInstallations.id, row.id));
  await recordEvent(ctx.db, ctx.jobs, { integrationId: found.integration.id, installationId: found.installation.id, siteId }, { type: 'site_installation_deleted', previous: { configuration: row.configuration } });
}

/** The sites one installation was given, oldest first. */
export function sitesOfInstallation(ctx: RequestContext, found: FoundInstallation, args: PageArgs, max: number): Promise<Page<SiteInstallationRow>> {
  const s = integrationSiteInstallations;
  return keysetPage<SiteInstallationRow>(ctx.db, { table: s, where: eq(s.installationId, found.installation.id), keys: byTimeThenId(s.createdAt, (r) => r.createdAt, s.id), direction: 'asc' }, args, max);
}

/** The spaces one installation was given, oldest first. */
export function spacesOfInstallation(ctx: RequestContext, found: FoundInstallation, args: PageArgs, max: number): Promise<Page<SpaceInstallationRow>> {
  const s = integrationSpaceInstallations;
  return keysetPage<SpaceInstallationRow>(ctx.db, { table: s, where: eq(s.installationId, found.installation.id), keys: byTimeThenId(s.createdAt, (r) => r.createdAt, s.id), direction: 'asc' }, args, max);
}

const oldestGiven = <T extends { id: string; createdAt: Date; installationId: string }>(table: typeof integrationSiteInstallations | typeof integrationSpaceInstallations) =>
  ({ keys: byTimeThenId<T>(table.createdAt, (r) => r.createdAt, table.id), direction: 'asc' as const, partition: table.installationId, parentOf: (r: T) => r.installationId });

/** The sites given to each of these installations, oldest first, in one statement; the caller passes only installations it sees. */
export function sitesOfInstallations(ctx: RequestContext, seen: readonly InstallationRow[], args: PageArgs, max: number): Promise<Map<string, Page<SiteInstallationRow>>> {
  return keysetPages<SiteInstallationRow>(ctx.db, { table: integrationSiteInstallations, ...oldestGiven<SiteInstallationRow>(integrationSiteInstallations), parentIds: seen.map((row) => row.id) }, args, max);
}

/** The spaces given to each of these installations, with their settings, oldest first, in one statement; the caller passes only installations it sees. */
export function spacesOfInstallations(ctx: RequestContext, seen: readonly InstallationRow[], args: PageArgs, max: number): Promise<Map<string, Page<SpaceInstallationRow>>> {
  return keysetPages<SpaceInstallationRow>(ctx.db, { table: integrationSpaceInstallations, ...oldestGiven<SpaceInstallationRow>(integrationSpaceInstallations), parentIds: seen.map((row) => row.id) }, args, max);
}
