import { and, count, eq } from 'drizzle-orm';
import { anyOf } from '../db/any';
import { defineLoader } from '../db/loader';
import type { TeamRole } from '../domain/roles';
import { byKey } from '../lib/loaders';
import type { RequestContext } from '../context/request-context';
import { teamMembers, type TeamMemberRow, type TeamRow } from '../db/schema/teams';

export interface TeamMemberKey {
  teamId: string;
  userId: string;
}
const teamMemberKey = (k: TeamMemberKey) => `${k.teamId}:${k.userId}`;

export const teamMemberByKey = defineLoader<TeamMemberKey, TeamMemberRow, string>(
  'teamMemberByKey',
  async (db, keys) => {
    const rows = await db
      .select()
      .from(teamMembers)
      .where(
        and(
          anyOf(teamMembers.teamId, [...new Set(keys.map((k) => k.teamId))]),
          anyOf(teamMembers.userId, [...new Set(keys.map((k) => k.userId))]),
        ),
      );
    return byKey(keys.map(teamMemberKey), rows, teamMemberKey);
  },
  { cacheKeyFn: teamMemberKey },
);

/** How many teams of the organization the user owns. Keyed `${organizationId}:${userId}`. */
export const ownedTeamCount = defineLoader<string, number>('ownedTeamCount', async (db, keys) => {
  const pairs = keys.map((k) => k.split(':') as [string, string]);
  const rows = await db
    .select({ organizationId: teamMembers.organizationId, userId: teamMembers.userId, n: count() })
    .from(teamMembers)
    .where(
      and(
        anyOf(teamMembers.organizationId, [...new Set(pairs.map((p) => p[0]))]),
        anyOf(teamMembers.userId, [...new Set(pairs.map((p) => p[1]))]),
        eq(teamMembers.role, 'owner'),
      ),
    )
    .groupBy(teamMembers.organizationId, teamMembers.userId);
  return byKey(keys, rows, (r) => `${r.organizationId}:${r.userId}`).map((r) => Number(r?.n ?? 0));
});

/** The viewer's role in the team; undefined when they are not in it. */
export async function viewerTeamRole(ctx: RequestContext, team: TeamRow): Promise<TeamRole | undefined> {
  if (!ctx.viewer) return undefined;
  return (await teamMemberByKey(ctx).load({ teamId: team.id, userId: ctx.viewer.user.id }))?.role;
}

/** After a write to a team's members: later checks in this request see it. */
export function forgetTeamRoles(ctx: RequestContext, key?: TeamMemberKey): void {
  if (key) teamMemberByKey(ctx).clear(key);
  else teamMemberByKey(ctx).clearAll();
  ownedTeamCount(ctx).clearAll();
  ctx.authz.forget();
}
