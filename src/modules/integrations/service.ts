import { and, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { byTimeThenId, keysetPage, keysetPages } from '../../db/keyset';
import { requireViewer, type RequestContext } from '../../context/request-context';
import { ConflictError, NotFoundError, ValidationError } from '../../domain/errors';
import type { Page, PageArgs } from '../../domain/page';
import { parseInput } from '../../domain/validate';
import { newId } from '../../lib/ids';
import { FetchRefused } from '../../lib/safe-fetch';
import { getOrganization, organizationById } from '../organizations/service';
import { organizations, type OrganizationRow } from '../../db/schema/organizations';
import { users } from '../../db/schema/users';
import { checkedAddress, parseTargetUrl } from '../../lib/address-guard';
import { devModeSchema, INTEGRATION_NAME, integrationListSchema, publishSchema, type DevModeInput, type IntegrationListInput, type PublishInput } from './input';
import { putBlob } from './files';
import { encryptSecrets } from './secrets';
import { integrationById } from './loaders';
import { integrations, type IntegrationManifest, type IntegrationRow } from '../../db/schema/integrations';

/** Integrations by id, unchecked: for services that decide who sees what themselves. */
export { integrationById } from './loaders';

/*
 * Integrations: publishing (what `gitbook publish` sends), reading, listing and unpublishing, and
 * dev mode. A private integration is seen only by its owner's members and its own tokens; to
 * anyone else it answers exactly like a missing one.
 */

/** Where icons and preview images are served from, by hash (see assets.ts). */
export const ASSETS_PATH = '/integration-assets/';

/** The owner organization, for presenting an integration to anyone who may see it (members of it or not). */
export async function integrationOwner(ctx: RequestContext, row: IntegrationRow): Promise<OrganizationRow> {
  const org = await organizationById(ctx).load(row.ownerId);
  if (!org) throw new NotFoundError('Organization');
  return org;
}

export function checkName(name: string): string {
  if (!INTEGRATION_NAME.test(name) || name.length > 100) throw new ValidationError('integrationName may hold letters, digits, "-", "_" and "."', ['integrationName']);
  return name;
}

async function byName(ctx: RequestContext, name: string): Promise<IntegrationRow | undefined> {
  const [row] = await ctx.db.select().from(integrations).where(eq(integrations.name, name));
  return row;
}

/** An integration the caller may see, by name; anything else is NOT_FOUND. */
export async function getIntegration(ctx: RequestContext, name: string): Promise<IntegrationRow> {
  requireViewer(ctx);
  const row = await byName(ctx, checkName(name));
  if (!row) throw new NotFoundError('Integration');
  await ctx.authz.assertVisible('integration:view', row, 'Integration');
  return row;
}

/**
 * The integration behind a public endpoint (`.../integration`), which anyone may call, webhooks
 * included: no token, no visibility check; null when there is none of that name.
 */
export async function findIntegrationForEndpoint(ctx: RequestContext, name: string): Promise<IntegrationRow | null> {
  if (!INTEGRATION_NAME.test(name)) return null;
  return (await byName(ctx, name)) ?? null;
}

/** An integration by id (GraphQL nodes, event delivery); NOT_FOUND unless visible. Batched per request. */
export async function getIntegrationById(ctx: RequestContext, id: string): Promise<IntegrationRow> {
  requireViewer(ctx);
  const row = await integrationById(ctx).load(id);
  if (!row) throw new NotFoundError('Integration');
  await ctx.authz.assertVisible('integration:view', row, 'Integration');
  return row;
}

/** The organization a publish names, by id or hostname; one the caller cannot see is a 404 like a missing one (the spec lists 404). */
async function publishTarget(ctx: RequestContext, idOrHost: string): Promise<OrganizationRow> {
  const [byHost] = await ctx.db.select({ id: organizations.id }).from(organizations).where(or(eq(organizations.id, idOrHost), eq(organizations.hostname, idOrHost.toLowerCase())));
  const org = byHost && (await getOrganization(ctx, byHost.id).catch((e) => (e instanceof NotFoundError ? undefined : Promise.reject(e))));
  if (!org) throw new NotFoundError(`Organization ${idOrHost}`);
  return org;
}

function blockDomains(blocks: readonly { urlUnfurl?: string[] }[] | undefined): string[] {
  const domains = new Set<string>();
  for (const pattern of (blocks ?? []).flatMap((b) => b.urlUnfurl ?? [])) {
    try {
      domains.add(new URL(pattern.replace(/\*/g, 'x')).hostname.replace(/^x\./, ''));
    } catch {
      // A pattern that is no URL names no domain.
    }
  }
  return [...domains];
}

/**
 * Publishes a new integration, or a new version of one the caller's organization owns: the
 * script, images and manifest replace the previous ones and `version` goes up by one. Needs
 * `admin` in the owner organization.
 */
export async function publishIntegration(ctx: RequestContext, name: string, input: PublishInput): Promise<IntegrationRow> {
  requireViewer(ctx);
  checkName(name);
  const body = parseInput(publishSchema, input);
  const org = await publishTarget(ctx, body.organization);
  await ctx.authz.assert('organization:admin', org, 'Only organization admins can publish integrations');
  const existing = await byName(ctx, name);
  if (existing && existing.ownerId !== org.id) throw new ConflictError(`The name ${name} is taken by another integration`);
  const scriptBlob = await putBlob(ctx.db, Buffer.from(body.script, 'utf8'));
  const iconBlob = body.icon ? await putBlob(ctx.db, Buffer.from(body.icon, 'base64')) : null;
  const previewBlobs = await Promise.all((body.previewImages ?? []).map((img) => putBlob(ctx.db, Buffer.from(img, 'base64'))));
  const manifest: IntegrationManifest = {
    ...(body.blocks ? { blocks: body.blocks } : {}),
    ...(body.contentSources ? { contentSources: body.contentSources } : {}),
    ...(body.configurations ? { configurations: body.configurations } : {}),
    ...(body.externalLinks ? { externalLinks: body.externalLinks } : {}),
    ...(body.contentSecurityPolicy !== undefined ? { contentSecurityPolicy: body.contentSecurityPolicy } : {}),
  };
  const fields = {
    runtime: (body.runtime ?? 'v1') as 'v1' | 'v2',
    title: body.title,
    description: body.description,
    summary: body.summary ?? null,
    visibility: body.visibility ?? 'private',
    target: body.target ?? 'all',
    scopes: [...new Set(body.scopes)],
    categories: [...new Set(body.categories ?? [])],
    manifest,
    blockDomains: blockDomains(body.blocks),
    iconBlob,
    previewBlobs,
    scriptBlob,
    secrets: body.secrets && Object.keys(body.secrets).length ? await encryptSecrets(ctx.db, body.secrets) : null,
    updatedAt: ctx.now(),
  };
  if (existing) {
    await ctx.authz.assert('integration:publish', existing, 'Only the owner organization admins can publish this integration');
    const [row] = await ctx.db
      .update(integrations)
      .set({ ...fields, version: sql`${integrations.version} + 1` })
      .where(eq(integrations.id, existing.id))
      .returning();
    return row!;
  }
  return ctx.db.transaction(async (tx) => {
    const id = newId();
    const botUserId = newId();
    await tx.insert(users).values({ id: botUserId, displayName: body.title, email: `integration-${id.toLowerCase()}@integrations.quire.invalid` });
    const [row] = await tx
      .insert(integrations)
      .values({ id, name, ownerId: org.id, botUserId, signingSecret: randomBytes(32).toString('base64url'), createdAt: ctx.now(), ...fields })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new ConflictError(`The name ${name} is taken by another integration`);
    return row;
  });
}

/** Unpublishes: the integration, its installations, tokens and events are deleted. Owner admins only. */
export async function unpublishIntegration(ctx: RequestContext, name: string): Promise<void> {
  const row = await getIntegration(ctx, name);
  await ctx.authz.assert('integration:publish', row, 'Only the owner organization admins can unpublish this integration');
  await ctx.db.delete(integrations).where(eq(integrations.id, row.id));
}

/**
 * What the caller may list: public integrations, and every integration of the organizations they
 * belong to (private and unlisted ones too), and an integration token's own.
 */
function listedWhere(ctx: RequestContext): SQL {
  const viewer = requireViewer(ctx);
  const orgIds = [...(viewer.memberships?.values() ?? [])].filter((m) => !m.disabled).map((m) => m.organizationId);
  return or(
    eq(integrations.visibility, 'public'),
    orgIds.length ? inArray(integrations.ownerId, orgIds) : undefined,
    viewer.grant ? eq(integrations.id, viewer.grant.integrationId) : undefined,
  )!;
}

/** The integrations the caller may see, newest first, with the v0.137 filters. */
export async function listIntegrations(ctx: RequestContext, filter: IntegrationListInput, args: PageArgs, max: number): Promise<Page<IntegrationRow>> {
  const f = parseInput(integrationListSchema, filter);
  const like = f.search ? `%${f.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  const where = and(
    listedWhere(ctx),
    like ? or(ilike(integrations.title, like), ilike(integrations.name, like), ilike(integrations.description, like)) : undefined,
    f.category ? sql`${f.category} = any(${integrations.categories})` : undefined,
    f.blockDomain ? sql`${f.blockDomain.toLowerCase()} = any(${integrations.blockDomains})` : undefined,
    f.blocks === undefined ? undefined : f.blocks ? sql`jsonb_array_length(coalesce(${integrations.manifest}->'blocks', '[]')) > 0` : sql`jsonb_array_length(coalesce(${integrations.manifest}->'blocks', '[]')) = 0`,
    f.contentSources === undefined ? undefined : f.contentSources ? sql`jsonb_array_length(coalesce(${integrations.manifest}->'contentSources', '[]')) > 0` : sql`jsonb_array_length(coalesce(${integrations.manifest}->'contentSources', '[]')) = 0`,
    f.owner ? sql`${integrations.ownerId} in (select id from organizations where id = ${f.owner} or hostname = ${f.owner.toLowerCase()})` : undefined,
    f.scope ? sql`${f.scope} = any(${integrations.scopes})` : undefined,
    f.target ? eq(integrations.target, f.target) : undefined,
  );
  return keysetPage<IntegrationRow>(ctx.db, { table: integrations, where, keys: byTimeThenId(integrations.createdAt, (r) => r.createdAt, integrations.id), direction: 'desc' }, args, max);
}

/**
 * The integrations each of these organizations publishes that the caller may see, newest first, in
 * one statement for all of them (GraphQL's `Organization.integrations`).
 */
export async function listIntegrationsOf(ctx: RequestContext, orgs: readonly OrganizationRow[], args: PageArgs, max: number): Promise<Map<string, Page<IntegrationRow>>> {
  return keysetPages<IntegrationRow>(
    ctx.db,
    {
      table: integrations,
      where: listedWhere(ctx),
      keys: byTimeThenId(integrations.createdAt, (r) => r.createdAt, integrations.id),
      direction: 'desc',
      partition: integrations.ownerId,
      parentIds: orgs.map((o) => o.id),
      parentOf: (r) => r.ownerId,
    },
    args,
    max,
  );
}

/**
 * Dev mode: events of the owner's installations (of every installation with `all`) go to the
 * tunnel instead of the script. The URL passes the SSRF guard now, and again at each delivery.
 */
export async function setDevMode(ctx: RequestContext, name: string, input: DevModeInput): Promise<IntegrationRow> {
  const row = await getIntegration(ctx, name);
  await ctx.authz.assert('integration:publish', row, 'Only the owner organization admins can use dev mode');
  const body = parseInput(devModeSchema, input);
  try {
    await checkedAddress(parseTargetUrl(body.tunnelUrl, 'tunnelUrl'), ctx.config.fetchAllowHosts ?? [], 'tunnelUrl');
  } catch (error) {
    if (error instanceof FetchRefused) throw new ValidationError(error.message, ['tunnelUrl']);
    throw error;
  }
  const [updated] = await ctx.db
    .update(integrations)
    .set({ devTunnelUrl: body.tunnelUrl, devAll: body.all ?? false, updatedAt: ctx.now() })
    .where(eq(integrations.id, row.id))
    .returning();
  return updated!;
}

export async function disableDevMode(ctx: RequestContext, name: string): Promise<void> {
  const row = await getIntegration(ctx, name);
  await ctx.authz.assert('integration:publish', row, 'Only the owner organization admins can use dev mode');
  await ctx.db.update(integrations).set({ devTunnelUrl: null, devAll: false, updatedAt: ctx.now() }).where(eq(integrations.id, row.id));
}

/** Where dev mode sends the integration's events, for those who may use it; null when it is off or for anyone else. */
export async function devModeOf(ctx: RequestContext, row: IntegrationRow): Promise<{ tunnelUrl: string; all: boolean } | null> {
  if (!row.devTunnelUrl || !(await ctx.authz.can('integration:publish', row))) return null;
  return { tunnelUrl: row.devTunnelUrl, all: row.devAll };
}

/** For the delivery task of the installations module: the stored bundle and the decrypted secrets. */
export { getBlob as readStoredFile } from './files';
export { decryptSecrets } from './secrets';
export { issueToken } from './tokens';
