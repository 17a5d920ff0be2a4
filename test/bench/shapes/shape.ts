/**
 * A request shape measured side by side: the same rows asked through Quire's GraphQL, Quire's REST
 * and one hand-written SQL statement served by a minimal postgres.js handler (the baseline).
 * Each request targets one organization; a run rotates over `organizations`.
 */
export interface BenchShape {
  name: string;
  /** What the rows are, for the table's legend. */
  description: string;
  viewer: 'admin' | 'reader';
  organizations: readonly string[];
  graphql?: { query: string; variables: (organizationId: string) => Record<string, unknown> };
  rest?: (organizationId: string) => string;
  /**
   * The baseline: one statement whose single row has a `data` column holding the whole answer as
   * JSON. `$1` is the organization id, `$2` the viewer's user id.
   */
  raw: string;
}
