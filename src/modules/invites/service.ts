import { and, eq } from 'drizzle-orm';
import { byTimeThenId, keysetPage } from '../../db/keyset';
import { requireViewer, type RequestContext } from '../../context/request-context';
import { ForbiddenError, NotFoundError } from '../../domain/errors';
import type { Page, PageArgs } from '../../domain/page';
import { parseInput } from '../../domain/validate';
import { newId } from '../../lib/ids';
import { rememberMember, tokenReaches } from '../../access-control/membership';
import { addMembership } from '../members/service';
import { getOrganization, organizationById } from '../organizations/service';
import { linkInviteCreateSchema, linkInviteUpdateSchema, type LinkInviteCreateInput, type LinkInviteUpdateInput } from './input';
import { organizationLinkInvites, type LinkInviteRow } from '../../db/schema/invites';

async function adminOrganization(ctx: RequestContext, organizationId: string) {
  const org = await getOrganization(ctx, organizationId);
  await ctx.authz.assert('organization:admin', org, 'Only organization admins can manage invite links');
  return org;
}

export async function createLinkInvite(ctx: RequestContext, organizationId: string, input: LinkInviteCreateInput): Promise<LinkInviteRow> {
  const org = await adminOrganization(ctx, organizationId);
  const { role } = parseInput(linkInviteCreateSchema, input);
  const [row] = await ctx.db
    .insert(organizationLinkInvites)
    .values({ id: newId(), organizationId: org.id, role, createdBy: requireViewer(ctx).user.id, createdAt: ctx.now() })
    .returning();
  return row;
}

export async function listLinkInvites(ctx: RequestContext, organizationId: string, args: PageArgs, max: number): Promise<Page<LinkInviteRow>> {
  const org = await adminOrganization(ctx, organizationId);
  return keysetPage<LinkInviteRow>(
    ctx.db,
    {
      table: organizationLinkInvites,
      where: eq(organizationLinkInvites.organizationId, org.id),
      keys: byTimeThenId(organizationLinkInvites.createdAt, (i) => i.createdAt, organizationLinkInvites.id),
      direction: 'desc',
    },
    args,
    max,
  );
}

async function findInvite(ctx: RequestContext, organizationId: string, inviteId: string): Promise<LinkInviteRow | undefined> {
  const [row] = await ctx.db
    .select()
    .from(organizationLinkInvites)
    .where(and(eq(organizationLinkInvites.id, inviteId), eq(organizationLinkInvites.organizationId, organizationId)));
  return row;
}

export async function getLinkInvite(ctx: RequestContext, organizationId: string, inviteId: string): Promise<LinkInviteRow> {
  const org = await adminOrganization(ctx, organizationId);
  const invite = await findInvite(ctx, org.id, inviteId);
  if (!invite) throw new NotFoundError('Invite');
  return invite;
}

export async function updateLinkInvite(ctx: RequestContext, organizationId: string, inviteId: string, input: LinkInviteUpdateInput): Promise<LinkInviteRow> {
  const invite = await getLinkInvite(ctx, organizationId, inviteId);
  const { role } = parseInput(linkInviteUpdateSchema, input);
  const [row] = await ctx.db.update(organizationLinkInvites).set({ role }).where(eq(organizationLinkInvites.id, invite.id)).returning();
  return row;
}

/** Revokes an invite link; revoking one that does not exist succeeds. */
export async function deleteLinkInvite(ctx: RequestContext, organizationId: string, inviteId: string): Promise<void> {
  const org = await adminOrganization(ctx, organizationId);
  await ctx.db.delete(organizationLinkInvites).where(and(eq(organizationLinkInvites.id, inviteId), eq(organizationLinkInvites.organizationId, org.id)));
}

/**
 * Joins the organization through an invite link. The link itself is the credential: the caller is
 * not a member yet, so an unknown link and an unknown organization both answer NOT_FOUND.
 */
export async function joinWithLinkInvite(ctx: RequestContext, organizationId: string, inviteId: string): Promise<void> {
  const viewer = requireViewer(ctx);
  const invite = await findInvite(ctx, organizationId, inviteId);
  if (!invite) throw new NotFoundError('Invite');
  const org = (await organizationById(ctx).load(invite.organizationId))!;
  if (!org.inviteLinks) throw new ForbiddenError('Invite links are disabled in this organization');
  // An integration's token acts as its bot user, who must not become a member: an installation is what gives it reach.
  if (viewer.grant) throw new ForbiddenError('An integration cannot join an organization: install it there instead');
  // A token from one organization's single sign-on must not add its user to another.
  if (!tokenReaches(viewer, org.id)) throw new ForbiddenError('This token was made by single sign-on for another organization: join with a token of your own');
  const added = await addMembership(ctx.db, { organizationId: org.id, userId: viewer.user.id, role: invite.role, joinedAt: ctx.now() });
  if (added) rememberMember(ctx, { organizationId: org.id, userId: viewer.user.id }, added);
}
