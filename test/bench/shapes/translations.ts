import { encodeGlobalID } from '@pothos/plugin-relay';
import { orgIds } from '../data';
import type { BenchShape } from './shape';

/** An organization's translations, newest first, 50 of its 200 (test/bench/translations-data.ts). */
export const translationList: BenchShape = {
  name: 'translation list',
  description: 'first 50 translations of an organization with 200 (language, status, runs)',
  viewer: 'admin',
  organizations: orgIds,
  graphql: {
    query: 'query ($id: ID!) { node(id: $id) { ... on Organization { translations(first: 50) { edges { node { language status stats { runs } } } } } } }',
    variables: (org) => ({ id: encodeGlobalID('Organization', org) }),
  },
  rest: (org) => `/v1/orgs/${org}/translations?limit=50`,
  postgraphile: {
    query: `query ($id: String!) { organizationByRowId(rowId: $id) {
      translationsByOrganizationId(first: 50, orderBy: [CREATED_AT_DESC, ROW_ID_DESC]) { edges { node { language status runs } } } } }`,
    variables: (id) => ({ id }),
    // PostGraphile gives the columns' text and the bare column; Quire's GraphQL enums and a stats object.
    answer: ({ organizationByRowId: o }) => ({
      node: {
        translations: {
          edges: o.translationsByOrganizationId.edges.map(({ node }: Record<string, any>) => ({
            node: { language: node.language.toUpperCase(), status: node.status.toUpperCase(), stats: { runs: node.runs } },
          })),
        },
      },
    }),
  },
  raw: {
    sql: `select upper(language) as language, upper(status) as status, runs from translations
      where organization_id = $1 order by created_at desc, id desc limit 50`,
    answer: (rows) => ({ node: { translations: { edges: rows.map((r) => ({ node: { language: r.language, status: r.status, stats: { runs: r.runs } } })) } } }),
  },
};
