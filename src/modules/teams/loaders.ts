import { anyOf } from '../../db/any';
import { and, count, eq } from 'drizzle-orm';
import { byKey, defineLoader } from '../../app/loaders';
import { teamMembers, teams, type TeamMemberRow, type TeamRow } from './table';

export const teamById = defineLoader<string, TeamRow>('teamById', async (db, ids) =>
  byKey(ids, await db.select().from(teams).where(anyOf(teams.id, ids)), (t) => t.id),
);

export const memberCountByTeam = defineLoader<string, number>('memberCountByTeam', async (db, ids) => {
  const rows = await db
    .select({ teamId: teamMembers.teamId, n: count() })
    .from(teamMembers)
    .where(anyOf(teamMembers.teamId, ids))
    .groupBy(teamMembers.teamId);
  return byKey(ids, rows, (r) => r.teamId).map((r) => Number(r?.n ?? 0));
});

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
