import { orgIds } from '../data';
import type { BenchShape } from './shape';

export const small: BenchShape = {
  name: 'small',
  description: 'one org: title and member count (REST: GET /v1/orgs/{id}, which has no count)',
  viewer: 'admin',
  organizations: orgIds,
  graphql: { query: 'query ($id: ID!) { organization(id: $id) { title members { totalCount } } }', variables: (id) => ({ id }) },
  rest: (id) => `/v1/orgs/${id}`,
  postgraphile: {
    query: 'query ($id: String!) { organizationByRowId(rowId: $id) { title organizationMembersByOrganizationId { totalCount } } }',
    variables: (id) => ({ id }),
    answer: ({ organizationByRowId: o }) => ({ organization: { title: o.title, members: { totalCount: o.organizationMembersByOrganizationId.totalCount } } }),
  },
  raw: {
    sql: `select o.title, (select count(*) from organization_members m where m.organization_id = o.id)::int as members
      from organizations o where o.id = $1`,
    answer: ([row]) => ({ organization: { title: row.title, members: { totalCount: row.members } } }),
  },
};
