import { orgIds } from '../data';
import type { BenchShape } from './shape';

const query = `query ($id: ID!) { organization(id: $id) { spaces(first: 50) { edges { node { title parent { title } organization { title } } } } } }`;

/** The first 50 spaces of an organization, oldest first, each with its parent collection and organization. */
const sql = `select s.title, c.title as parent_title, o.title as organization_title
  from organizations o
  cross join lateral (select * from spaces where organization_id = o.id and deleted_at is null order by created_at, id limit 50) s
  left join collections c on c.id = s.parent_id
  where o.id = $1
  order by s.created_at, s.id`;

// PostGraphile has no notion of a deleted space: the condition asks for deleted_at is null.
const postgraphileQuery = `query ($id: String!) { organizationByRowId(rowId: $id) {
  spacesByOrganizationId(first: 50, orderBy: [CREATED_AT_ASC, ROW_ID_ASC], condition: { deletedAt: null }) {
    edges { node { title collectionByParentId { title } organizationByOrganizationId { title } } } } } }`;

export const twoLevelAnswer = (rows: Record<string, unknown>[]) => ({
  organization: {
    spaces: {
      edges: rows.map((r) => ({ node: { title: r.title, parent: r.parent_title == null ? null : { title: r.parent_title }, organization: { title: r.organization_title } } })),
    },
  },
});

export const twoLevel: BenchShape = {
  name: '2-level',
  description: 'org -> 50 spaces with parent collection and org titles, as an admin',
  viewer: 'admin',
  organizations: orgIds,
  graphql: { query, variables: (id) => ({ id }) },
  rest: (id) => `/v1/orgs/${id}/spaces?limit=50`,
  postgraphile: {
    query: postgraphileQuery,
    variables: (id) => ({ id }),
    answer: ({ organizationByRowId: o }) => ({
      organization: {
        spaces: {
          edges: o.spacesByOrganizationId.edges.map(({ node }: Record<string, any>) => ({
            node: { title: node.title, parent: node.collectionByParentId, organization: node.organizationByOrganizationId },
          })),
        },
      },
    }),
  },
  raw: { sql, answer: twoLevelAnswer },
};
