import { orgIds } from '../data';
import type { BenchShape } from './shape';

/**
 * The least a GraphQL request can cost: `{ __typename }` reads nothing, so what it costs is the
 * HTTP layer, authentication and the GraphQL pipeline alone (REST: GET /v1/user, the caller,
 * from the session cache). The baseline still sends one trivial statement.
 */
export const floor: BenchShape = {
  name: 'floor',
  description: '{ __typename }: no data, the GraphQL pipeline alone (REST: GET /v1/user)',
  viewer: 'admin',
  organizations: orgIds,
  graphql: { query: '{ __typename }', variables: () => ({}) },
  rest: () => '/v1/user',
  postgraphile: { query: '{ __typename }', variables: () => ({}), answer: (data) => data },
  raw: { sql: `select 'Query' as typename where $1::text is not null`, answer: ([row]) => ({ __typename: row.typename }) },
};
