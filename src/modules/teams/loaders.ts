import { count } from 'drizzle-orm';
import { anyOf } from '../../db/any';
import { defineLoader } from '../../db/loader';
import { byKey } from '../../lib/loaders';
import { teamMembers, teams, type TeamRow } from '../../db/schema/teams';

export const teamById = defineLoader<string, TeamRow>('teamById', async (db, ids) =>
  byKey(ids, await db.select().from(teams).where(anyOf(teams.id, ids)), (t) => t.id),
);

export const memberCountByTeam = defineLoader<string, number>('memberCountByTeam', async (db, ids) => {
  const rows = await db.select({ teamId: teamMembers.teamId, n: count() }).from(teamMembers).where(anyOf(teamMembers.teamId, ids)).groupBy(teamMembers.teamId);
  return byKey(ids, rows, (r) => r.teamId).map((r) => Number(r?.n ?? 0));
});
