import { orgIds } from '../data';
import type { BenchShape } from './shape';
import { twoLevel, twoLevelAnswer } from './two-level';

/**
 * The 2-level shape as a `read` member, so the lists go through the visibility rules. The
 * baseline applies the same rules by hand: default levels down the collection tree, capped by
 * the member's role, plus grants to them and their teams; a parent they may not see is null.
 */
const raw = `with recursive
    m as (select role from organization_members where organization_id = $1 and user_id = $2 and not disabled),
    my_teams as (select team_id from team_members where user_id = $2),
    tree(id, eff, granted) as (
      select c.id, case when c.default_level = 'inherit' then (select role from m) else c.default_level end,
        exists (select 1 from content_grants g where g.collection_id = c.id and (g.user_id = $2 or g.team_id in (select team_id from my_teams)))
      from collections c where c.organization_id = $1 and c.parent_id is null and exists (select 1 from m)
      union all
      select c.id, case when c.default_level = 'inherit' then t.eff else c.default_level end,
        t.granted or exists (select 1 from content_grants g where g.collection_id = c.id and (g.user_id = $2 or g.team_id in (select team_id from my_teams)))
      from collections c join tree t on c.parent_id = t.id
    ),
    seen_collections as (select id from tree where granted or eff is not null or (select role from m) = 'admin'),
    page as (
      select s.* from spaces s
      where s.organization_id = $1 and s.deleted_at is null and exists (select 1 from m) and (
        (select role from m) = 'admin'
        or ((select role from m) is not null and s.default_level is not null
            and (s.default_level <> 'inherit' or s.parent_id is null or s.parent_id in (select id from tree where eff is not null)))
        or s.parent_id in (select id from tree where granted)
        or s.id in (select g.space_id from content_grants g where g.space_id is not null
                    and (g.user_id = $2 or g.team_id in (select team_id from my_teams))))
      order by s.created_at, s.id limit 50
    )
  select p.title, c.title as parent_title, o.title as organization_title
  from organizations o cross join page p
  left join collections c on c.id = p.parent_id and c.id in (select id from seen_collections)
  where o.id = $1
  order by p.created_at, p.id`;

export const twoLevelReader: BenchShape = {
  ...twoLevel,
  name: '2-level, reader',
  description: 'the 2-level shape as a read member: lists filtered by the visibility rules',
  viewer: 'reader',
  organizations: orgIds,
  raw: { sql: raw, answer: twoLevelAnswer },
  // PostGraphile runs without authentication: it has no reader to filter for.
  postgraphile: undefined,
};
