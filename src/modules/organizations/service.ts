import { and, arrayContains, eq, inArray, sql } from 'drizzle-orm';
import type { RequestContext } from '../../app/context';
import type { Db } from '../../db/client';
import { keysetPage } from '../../db/keyset';
import { requireViewer } from '../../domain/authz';
import { ConflictError, NotFoundError } from '../../domain/errors';
import { newId } from '../../domain/ids';
import { emptyPage, type Page, type PageArgs } from '../../domain/page';
import type { Role } from '../../domain/roles';
import { parseInput } from '../../domain/validate';
import { organizationMembers } from '../members/table';
import { countOwnedTeams } from '../teams/service';
import { users } from '../users/table';
import { emailDomainSchema, organizationSearchSchema, organizationTitleSchema, organizationUpdateSchema } from './input';
import { organizationById } from './loaders';
import './policy';
import { organizations, type OrganizationRow } from './table';

/** An organization the viewer can see; anything else, including another's, is NOT_FOUND. */
export async function getOrganization(ctx: RequestContext, id: string): Promise<OrganizationRow> {
  requireViewer(ctx);
  const org = await organizationById(ctx).load(id);
  if (!org) throw new NotFoundError('Organization');
  await ctx.authz.assertVisible('organization:view', org, 'Organization');
  return org;
}

/** An organization row by id, whatever the viewer's access; callers check it. */
export async function loadOrganization(ctx: RequestContext, id: string): Promise<OrganizationRow | null> {
  return organizationById(ctx).load(id);
}

/** Organizations the viewer belongs to, oldest membership first. */
export async function listViewerOrganizations(ctx: RequestContext, args: PageArgs, max: number): Promise<Page<OrganizationRow>> {
  const viewer = requireViewer(ctx);
  return keysetPage<OrganizationRow>(
    ctx.db,
    {
      table: organizations,
      where: inArray(
        organizations.id,
        ctx.db
          .select({ id: organizationMembers.organizationId })
          .from(organizationMembers)
          .where(and(eq(organizationMembers.userId, viewer.user.id), eq(organizationMembers.disabled, false))),
      ),
      keys: [
        { column: organizations.createdAt, value: (o) => o.createdAt },
        { column: organizations.id, value: (o) => o.id },
      ],
      direction: 'asc',
    },
    args,
    max,
  );
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
  const [view, admin, listMembers, createContent] = await Promise.all([
    ctx.authz.can('organization:view', org),
    ctx.authz.can('organization:admin', org),
    ctx.authz.can('organization:listMembers', org),
    ctx.authz.can('organization:createContent', org),
  ]);
  const ownTeam = view && ctx.viewer ? admin || (await countOwnedTeams(ctx, org.id, ctx.viewer.user.id)) > 0 : false;
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

export async function updateOrganization(ctx: RequestContext, id: string, input: unknown): Promise<OrganizationRow> {
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
  return updated;
}

/** Content search across the organization. There is no content to search yet, so no results. */
export async function searchOrganization(ctx: RequestContext, id: string, input: { query?: string | null }): Promise<Page<never>> {
  await getOrganization(ctx, id);
  parseInput(organizationSearchSchema, input);
  return emptyPage();
}

/**
 * Organizations that claim an e-mail domain, for "join your team" prompts. Only someone whose own
 * address is at that domain, or who already belongs to the organization, learns that it exists.
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
        ownDomain === wanted
          ? undefined
          : inArray(
              organizations.id,
              ctx.db
                .select({ id: organizationMembers.organizationId })
                .from(organizationMembers)
                .where(and(eq(organizationMembers.userId, viewer.user.id), eq(organizationMembers.disabled, false))),
            ),
      ),
    )
    .orderBy(organizations.createdAt, organizations.id)
    .limit(100);
  for (const row of rows) organizationById(ctx).prime(row.id, row);
  return rows;
}

/**
 * A new organization with its first admin. System use (command line, first start): it is how
 * the very first user of a server comes to exist, so it has no caller to authorize.
 */
export async function createOrganizationWithAdmin(
  db: Db,
  input: { title: string; adminUserId: string; role?: Role },
): Promise<OrganizationRow> {
  const title = parseInput(organizationTitleSchema, input.title, ['title']);
  return db.transaction(async (tx) => {
    const [org] = await tx.insert(organizations).values({ id: newId(), title, defaultRole: 'read' }).returning();
    await tx.insert(organizationMembers).values({ organizationId: org.id, userId: input.adminUserId, role: input.role ?? 'admin' });
    return org;
  });
}

export async function countUsers(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(users);
  return Number(row.n);
}
