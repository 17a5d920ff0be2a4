import { and, count } from 'drizzle-orm';
import { anyOf } from '../../db/any';
import { defineLoader } from '../../db/loader';
import { byKey } from '../../lib/loaders';
import { teamMembers } from '../../db/schema/teams';

interface MemberKey {
  organizationId: string;
  userId: string;
}

const memberKey = (k: MemberKey) => `${k.organizationId}:${k.userId}`;

/** How many teams of the organization each member belongs to. */
export const teamCountByMember = defineLoader<MemberKey, number, string>(
  'teamCountByMember',
  async (db, keys) => {
    const rows = await db
      .select({ organizationId: teamMembers.organizationId, userId: teamMembers.userId, n: count() })
      .from(teamMembers)
      .where(
        and(
          anyOf(teamMembers.organizationId, [...new Set(keys.map((k) => k.organizationId))]),
          anyOf(teamMembers.userId, [...new Set(keys.map((k) => k.userId))]),
        ),
      )
      .groupBy(teamMembers.organizationId, teamMembers.userId);
    return byKey(keys.map(memberKey), rows, memberKey).map((r) => Number(r?.n ?? 0));
  },
  { cacheKeyFn: memberKey },
);
