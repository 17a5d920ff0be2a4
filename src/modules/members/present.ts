import type { RequestContext } from '../../context/request-context';
import { presentUser } from '../users/present';
import { getUser } from '../users/service';
import { memberSpaceCount, memberTeamCount } from './service';
import type { MemberRow } from '../../db/schema/members';

export async function presentMember(ctx: RequestContext, member: MemberRow) {
  const [user, teams, spaces] = await Promise.all([getUser(ctx, member.userId), memberTeamCount(ctx, member), memberSpaceCount(ctx, member)]);
  return {
    object: 'member' as const,
    id: member.userId,
    role: member.role,
    user: await presentUser(ctx, user),
    disabled: member.disabled,
    joinedAt: member.joinedAt.toISOString(),
    ...(member.lastSeenAt ? { lastSeenAt: member.lastSeenAt.toISOString() } : {}),
    sso: member.sso,
    spaces,
    teams,
  };
}
