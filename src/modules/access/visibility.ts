import { sql, type SQL } from 'drizzle-orm';
import { collections } from '../collections/table';
import { spaces } from '../spaces/table';

/**
 * The SQL twin of `resolveContentRole`, for lists: which rows may the user see at all (any role)?
 * Computing it in the query keeps keyset pages full and their counts right whatever the user may
 * see. Admins see everything; other members see content whose nearest non-inherited default level
 * is set (the organization role when none is), guests only what is granted; a grant on a
 * collection reaches all it contains. `test/modules/access/visibility.test.ts` checks that both agree.
 *
 * The collection tree of the user's organizations is walked once per statement, into arrays the
 * per-row checks look into: A, collections whose default reaches members; G, collections granted
 * to the user on themselves or an ancestor.
 */
function tree(userId: string, pick: SQL): SQL {
  const granted = (column: SQL) =>
    sql`exists (select 1 from content_grants g where g.collection_id = ${column} and (g.user_id = ${userId} or g.team_id in (select team_id from team_members where user_id = ${userId})))`;
  return sql`array(with recursive tree(id, eff, granted, member, admin) as (
      select c.id, case when c.default_level = 'inherit' then m.role else c.default_level end, ${granted(sql`c.id`)},
        m.role is not null, m.role = 'admin'
      from collections c join organization_members m on m.organization_id = c.organization_id and m.user_id = ${userId} and not m.disabled
      where c.parent_id is null
      union all
      select c.id, case when c.default_level = 'inherit' then t.eff else c.default_level end, t.granted or ${granted(sql`c.id`)},
        t.member, t.admin
      from collections c join tree t on c.parent_id = t.id
    ) select id from tree where ${pick})`;
}

export function visibleCollections(userId: string): SQL {
  return sql`${collections.id} = any(${tree(userId, sql`admin or granted or (member and eff is not null)`)})`;
}

export function visibleSpaces(userId: string): SQL {
  const openByDefault = tree(userId, sql`member and eff is not null`);
  const grantedAbove = tree(userId, sql`granted`);
  return sql`exists (select 1 from organization_members m
    where m.organization_id = ${spaces.organizationId} and m.user_id = ${userId} and not m.disabled and (
      m.role = 'admin'
      or (m.role is not null and ${spaces.defaultLevel} is not null and (
        ${spaces.defaultLevel} <> 'inherit' or ${spaces.parentId} is null or ${spaces.parentId} = any(${openByDefault})))
      or ${spaces.parentId} = any(${grantedAbove})
      or exists (select 1 from content_grants g where g.space_id = ${spaces.id}
        and (g.user_id = ${userId} or g.team_id in (select team_id from team_members where user_id = ${userId})))
    ))`;
}
