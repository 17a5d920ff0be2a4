import { and, arrayContains, eq, inArray } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { byTimeThenId, keysetPage } from '../../db/keyset';
import { requireViewer, type RequestContext, type Viewer } from '../../context/request-context';
import { ConflictError, NotFoundError, PreconditionFailedError } from '../../domain/errors';
import { type Page, type PageArgs } from '../../domain/page';
import { parseInput } from '../../domain/validate';
import { newId } from '../../lib/ids';
import { organizationMembers } from '../../db/schema/members';
import {
  emailDomainSchema,
  organizationTitleSchema,
  organizationUpdateSchema,
  type OrganizationUpdateInput,
} from './input';
import { organizationById } from './loaders';
import { organizations, type OrganizationRow } from '../../db/schema/organizations';

/** Organizations by id, unchecked: for services that decide who sees what themselves. */
export { organizationById } from './loaders';

/** An organization the viewer can see; anything else, including another's, is NOT_FOUND. */
export async function getOrganization(ctx: RequestContext, id: string): Promise<OrganizationRow> {
  const viewer = requireViewer(ctx);
  // The viewer's own organizations came with their session: no statement for those.
  const org = viewer.organizations?.get(id) ?? (await organizationById(ctx).load(id));
  if (!org) throw new NotFoundError('Organization');
  await ctx.authz.assertVisible('organization:view', org, 'Organization');
  return org;
}

/** The organizations the viewer is an enabled member of, as a subquery; a single sign-on token's own only. */
function viewerOrganizationIds(ctx: RequestContext, viewer: Viewer) {
  const m = organizationMembers;
  const scope = viewer.organizationId;
  return ctx.db
    .select({ id: m.organizationId })
    .from(m)
    .where(and(eq(m.userId, viewer.user.id), eq(m.disabled, false), scope === undefined ? undefined : eq(m.organizationId, scope)));
}

/** Organizations the viewer belongs to, oldest first. */
export async function listViewerOrganizations(ctx: RequestContext, args: PageArgs, max: number): Promise<Page<OrganizationRow>> {
  const viewer = requireViewer(ctx);
  const page = await keysetPage<OrganizationRow>(
    ctx.db,
    {
      table: organizations,
      where: inArray(organizations.id, viewerOrganizationIds(ctx, viewer)),
      keys: byTimeThenId(organizations.createdAt, (o) => o.createdAt, organizations.id),
      direction: 'asc',
    },
    args,
    max,
  );
  for (const org of page.items) organizationById(ctx).prime(org.id, org);
  return page;
}

export interface OrganizationPermissions {
  view: boolean;
  admin: boolean;
  ownTeam: boolean;
  createContent: boolean;
  createOpenAPISpec: boolean;
  ingestConversations: boolean;
  viewBilling: boolean;
  listMembers: boolean;
  listTeams: boolean;
  listIntegrations: boolean;
  listInstallations: boolean;
  installIntegration: boolean;
}

/** What the viewer may do in the organization, from the same checks the services enforce. */
export async function organizationPermissions(ctx: RequestContext, org: OrganizationRow): Promise<OrganizationPermissions> {
  const [view, admin, listMembers, createContent, ownTeam] = await Promise.all([
    ctx.authz.can('organization:view', org),
    ctx.authz.can('organization:admin', org),
    ctx.authz.can('organization:listMembers', org),
    ctx.authz.can('organization:createContent', org),
    ctx.authz.can('organization:ownTeam', org),
  ]);
  return {
    view,
    admin,
    ownTeam,
    createContent,
    createOpenAPISpec: createContent,
    ingestConversations: admin,
    viewBilling: admin,
    listMembers,
    listTeams: listMembers,
    listIntegrations: listMembers,
    listInstallations: admin,
    installIntegration: admin,
  };
}

export async function updateOrganization(ctx: RequestContext, id: string, input: OrganizationUpdateInput): Promise<OrganizationRow> {
  const org = await getOrganization(ctx, id);
  await ctx.authz.assert('organization:admin', org, 'Only organization admins can change its settings');
  const patch = parseInput(organizationUpdateSchema, input);
  if (patch.hostname && patch.hostname !== org.hostname) {
    const [taken] = await ctx.db.select({ id: organizations.id }).from(organizations).where(eq(organizations.hostname, patch.hostname));
    if (taken) throw new ConflictError(`hostname "${patch.hostname}" is already taken`, ['hostname']);
  }
  const { logo, ...rest } = patch;
  const [updated] = await ctx.db
    .update(organizations)
    .set({
      ...rest,
      ...(patch.emailDomains ? { emailDomains: [...new Set(patch.emailDomains)] } : {}),
      ...(logo !== undefined ? { logoUrl: logo } : {}),
      updatedAt: ctx.now(),
    })
    .where(eq(organizations.id, org.id))
    .returning();
  organizationById(ctx).clear(id).prime(id, updated);
  // The viewer's map may be the cached session's, shared with other requests: this request gets its own.
  if (ctx.viewer?.organizations) ctx.viewer.organizations = new Map(ctx.viewer.organizations).set(id, updated);
  ctx.sessions?.forgetOrganization(id);
  return updated;
}

/**
 * Organizations that claim an e-mail domain, for "join your team" prompts. Only someone whose own
 * address is at that domain, or who already belongs to the organization, learns that it exists; a
 * single sign-on token learns of its own organization only.
 */
export async function listOrganizationsForEmailDomain(ctx: RequestContext, domain: string): Promise<OrganizationRow[]> {
  const viewer = requireViewer(ctx);
  const wanted = parseInput(emailDomainSchema, domain, ['emailDomain']);
  const ownDomain = viewer.user.email.split('@')[1];
  const rows = await ctx.db
    .select()
    .from(organizations)
    .where(
      and(
        arrayContains(organizations.emailDomains, [wanted]),
        ownDomain === wanted ? undefined : inArray(organizations.id, viewerOrganizationIds(ctx, viewer)),
        viewer.organizationId === undefined ? undefined : eq(organizations.id, viewer.organizationId),
      ),
    )
    .orderBy(organizations.createdAt, organizations.id)
    .limit(100);
  for (const row of rows) organizationById(ctx).prime(row.id, row);
  return rows;
}

/**
 * The organization content is transferred to: one the viewer administers, other than `fromId`. A
 * missing organization, or one the viewer is not in, answers like a missing one.
 */
export async function getTransferTarget(ctx: RequestContext, fromId: string, organizationId: string): Promise<OrganizationRow> {
  const target = ctx.viewer?.organizations?.get(organizationId) ?? (await organizationById(ctx).load(organizationId));
  if (!target || !(await ctx.authz.can('organization:view', target))) throw new NotFoundError('Organization');
  if (target.id === fromId) throw new ConflictError('The content already belongs to this organization', ['organization']);
  if (!(await ctx.authz.can('organization:admin', target))) {
    throw new PreconditionFailedError('Content can only be transferred to an organization you administer', ['organization']);
  }
  return target;
}

/** A new organization row; its first admin is added by the caller in the same transaction. System use. */
export async function insertOrganization(tx: Tx, input: { title: string }): Promise<OrganizationRow> {
  const title = parseInput(organizationTitleSchema, input.title, ['title']);
  const [org] = await tx.insert(organizations).values({ id: newId(), title, defaultRole: 'read' }).returning();
  return org;
}
