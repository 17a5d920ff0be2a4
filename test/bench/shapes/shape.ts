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
   * The baseline: one hand-written statement (`$1` the organization id, `$2` the viewer's user id)
   * and the few lines of JS that turn its rows into the same answer, as a minimal handler would.
   */
  raw: { sql: string; answer: (rows: Record<string, unknown>[]) => unknown };
}
