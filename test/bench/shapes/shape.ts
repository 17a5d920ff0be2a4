/**
 * A request shape measured side by side: the same rows asked through Quire's GraphQL, Quire's REST
 * (and, where it can, PostGraphile) and one hand-written SQL statement served by a minimal postgres.js handler (the baseline).
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
   * The same rows through PostGraphile 5 over Quire's own tables, no authentication (door
   * 'PostGraphile', test/bench/postgraphile/). The query uses the names PostGraphile's amber preset
   * generates. `answer` turns PostGraphile's `data` into the baseline's, so the runner can check
   * both are about the same rows before measuring; without it only errors and emptiness are checked.
   * Left out where PostGraphile cannot ask the same thing (search, Quire's own permissions).
   */
  postgraphile?: {
    query: string;
    variables: (organizationId: string) => Record<string, unknown>;
    answer?: (data: Record<string, any>) => unknown;
  };
  /**
   * The baseline: one hand-written statement (`$1` the organization id, `$2` the viewer's user id)
   * and the few lines of JS that turn its rows into the same answer, as a minimal handler would.
   */
  raw: { sql: string; answer: (rows: Record<string, unknown>[]) => unknown };
}
