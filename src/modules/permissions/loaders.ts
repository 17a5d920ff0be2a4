import { and, count, isNotNull, sql } from 'drizzle-orm';
import { anyOf } from '../../db/any';
import { defineLoader } from '../../db/loader';
import { byKey } from '../../lib/loaders';
import { spaces } from '../spaces/table';
import { contentGrants } from './table';

/** Grants on spaces still out of the trash. */
const liveSpace = sql`exists (select 1 from ${spaces} where ${spaces.id} = ${contentGrants.spaceId} and ${spaces.deletedAt} is null)`;

/** How many live spaces each member was given directly. Keyed `<organizationId>:<userId>`. */
export const spaceGrantsByMember = defineLoader<string, number>('spaceGrantsByMember', async (db, keys) => {
  const pairs = keys.map((k) => k.split(':') as [string, string]);
  const rows = await db
    .select({ organizationId: contentGrants.organizationId, userId: contentGrants.userId, n: count() })
    .from(contentGrants)
    .where(
      and(
        anyOf(contentGrants.organizationId, [...new Set(pairs.map((p) => p[0]))]),
        anyOf(contentGrants.userId, [...new Set(pairs.map((p) => p[1]))]),
        isNotNull(contentGrants.spaceId),
        liveSpace,
      ),
    )
    .groupBy(contentGrants.organizationId, contentGrants.userId);
  return byKey(keys, rows, (r) => `${r.organizationId}:${r.userId}`).map((r) => Number(r?.n ?? 0));
});

/** How many live spaces each team was given. */
export const spaceGrantsByTeam = defineLoader<string, number>('spaceGrantsByTeam', async (db, ids) => {
  const rows = await db
    .select({ teamId: contentGrants.teamId, n: count() })
    .from(contentGrants)
    .where(and(anyOf(contentGrants.teamId, ids), isNotNull(contentGrants.spaceId), liveSpace))
    .groupBy(contentGrants.teamId);
  return byKey(ids, rows, (r) => r.teamId!).map((r) => Number(r?.n ?? 0));
});
