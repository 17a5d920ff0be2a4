import { encodeGlobalID } from '@pothos/plugin-relay';
import { changeRequestSpace, orgIds } from '../data';
import type { BenchShape } from './shape';

/** The open change requests of a space that has 1,000 of them, newest first, 50 at a time. */
export const changeRequestList: BenchShape = {
  name: 'change-request list',
  description: 'first 50 open change requests of a space with 1,000 (number, subject, status)',
  viewer: 'admin',
  organizations: orgIds,
  graphql: {
    query: 'query ($id: ID!) { node(id: $id) { ... on Space { changeRequests(first: 50) { edges { node { number subject status } } } } } }',
    variables: (org) => ({ id: encodeGlobalID('Space', changeRequestSpace(org)) }),
  },
  rest: (org) => `/v1/spaces/${changeRequestSpace(org)}/change-requests?limit=50`,
  postgraphile: {
    query: `query ($id: String!) { spaceByRowId(rowId: $id) {
      changeRequestsBySpaceId(first: 50, orderBy: [CREATED_AT_DESC, ROW_ID_DESC], condition: { status: "open" }) { edges { node { number subject status } } } } }`,
    variables: (org) => ({ id: changeRequestSpace(org) }),
    // PostGraphile gives the column's text; Quire's GraphQL an enum.
    answer: ({ spaceByRowId: s }) => ({
      node: { changeRequests: { edges: s.changeRequestsBySpaceId.edges.map(({ node }: Record<string, any>) => ({ node: { ...node, status: node.status.toUpperCase() } })) } },
    }),
  },
  raw: {
    sql: `select number, subject, upper(status) as status from change_requests
      where space_id = 'benchspace' || lpad((substr($1, 9)::int * 100)::text, 10, '0') and status = 'open'
      order by created_at desc, id desc limit 50`,
    answer: (rows) => ({ node: { changeRequests: { edges: rows.map((r) => ({ node: { number: r.number, subject: r.subject, status: r.status } })) } } }),
  },
};
