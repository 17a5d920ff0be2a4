import { orgIds } from '../data';
import type { BenchShape } from './shape';

const query = `query ($id: ID!) { organization(id: $id) { spaces(first: 50) { edges { node { title parent { title } organization { title } } } } } }`;

/** The first 50 spaces of an organization, oldest first, each with its parent collection and organization. */
const raw = `select json_build_object('organization', json_build_object('spaces', json_build_object('edges', coalesce((
    select json_agg(json_build_object('node', json_build_object('title', s.title,
      'parent', case when c.id is null then null else json_build_object('title', c.title) end,
      'organization', json_build_object('title', o.title))) order by s.created_at, s.id)
    from (select * from spaces where organization_id = o.id and deleted_at is null order by created_at, id limit 50) s
    left join collections c on c.id = s.parent_id), '[]'::json)))) as data
  from organizations o where o.id = $1`;

export const twoLevel: BenchShape = {
  name: '2-level',
  description: 'org -> 50 spaces with parent collection and org titles, as an admin',
  viewer: 'admin',
  organizations: orgIds,
  graphql: { query, variables: (id) => ({ id }) },
  rest: (id) => `/v1/orgs/${id}/spaces?limit=50`,
  raw,
};
