import { and } from 'drizzle-orm';
import { anyOf } from '../db/any';
import { defineLoader } from '../db/loader';
import { byKey } from '../lib/loaders';
import type { RequestContext, Viewer } from '../context/request-context';
import { organizationMembers, type MemberRow } from '../db/schema/members';

export interface MemberKey {
  organizationId: string;
  userId: string;
}
const memberKey = (k: MemberKey) => `${k.organizationId}:${k.userId}`;

/** Memberships by (organization, user), disabled ones included. */
export const memberByKey = defineLoader<MemberKey, MemberRow, string>(
  'memberByKey',
  async (db, keys) => {
    const rows = await db
      .select()
      .from(organizationMembers)
      .where(
        and(
          anyOf(organizationMembers.organizationId, [...new Set(keys.map((k) => k.organizationId))]),
          anyOf(organizationMembers.userId, [...new Set(keys.map((k) => k.userId))]),
        ),
      );
    return byKey(keys.map(memberKey), rows, memberKey);
  },
  { cacheKeyFn: memberKey },
);

/**
 * Whether the caller's token may act in the organization at all: a token made by an
 * organization's single sign-on acts in that organization only, and is an outsider everywhere else.
 */
export function tokenReaches(viewer: Viewer, organizationId: string): boolean {
  return viewer.organizationId === undefined || viewer.organizationId === organizationId;
}

/** The viewer's own membership of an organization; undefined for outsiders, disabled members, and organizations their token does not reach. */
export async function viewerMembership(ctx: RequestContext, organizationId: string): Promise<MemberRow | undefined> {
  if (!ctx.viewer || !tokenReaches(ctx.viewer, organizationId)) return undefined;
  // Authentication usually brought every membership of the viewer along: no statement then.
  const row = ctx.viewer.memberships ? ctx.viewer.memberships.get(organizationId) : await memberByKey(ctx).load({ organizationId, userId: ctx.viewer.user.id });
  return row && !row.disabled ? row : undefined;
}

/**
 * After a write to a membership: later reads in this request see the new row (or its absence),
 * and this process's next requests of that user authenticate afresh. Other processes learn it
 * from the database's announcement.
 */
export function rememberMember(ctx: RequestContext, key: MemberKey, row: MemberRow | null): void {
  const loader = memberByKey(ctx).clear(key);
  if (row) loader.prime(key, row);
  if (ctx.viewer?.memberships && ctx.viewer.user.id === key.userId) {
    // The map may be the cached session's, shared with other requests: this request gets its own.
    const memberships = new Map(ctx.viewer.memberships);
    if (row) memberships.set(key.organizationId, row);
    else memberships.delete(key.organizationId);
    ctx.viewer.memberships = memberships;
  }
  if (ctx.viewer?.organizations?.has(key.organizationId)) {
    // The session's copy of the organization now has an old member count: this request reads it afresh.
    const organizations = new Map(ctx.viewer.organizations);
    organizations.delete(key.organizationId);
    ctx.viewer.organizations = organizations;
  }
  ctx.sessions?.forgetUser(key.userId);
  // Every cached session holding the organization has its old member count: this instance drops
  // them now, the others when the database announces the change (migrations 0004 and 0022).
  ctx.sessions?.forgetOrganization(key.organizationId);
  ctx.authz.forget();
}
