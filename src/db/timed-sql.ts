import type { Sql } from 'postgres';
import { aroundUnsafe } from './around-unsafe';

/** Called once per statement when it settles: seconds from being sent to the pool until answered. */
export type StatementTimer = (seconds: number, failed: boolean) => void;

type Query = Promise<unknown> & { handle(): unknown };

/**
 * Each query from `unsafe` (all of drizzle's, inside transactions and savepoints too) is timed from
 * the moment it is handed to the pool, so the time includes waiting for a free connection, until
 * it settles.
 */
export function timedSql<T extends Sql>(sql: T, onStatement: StatementTimer): T {
  return aroundUnsafe(sql, (unsafe) => (...args) => time(unsafe(...args) as Query, onStatement));
}

function time(query: Query, onStatement: StatementTimer): Query {
  let started = 0;
  const handle = query.handle;
  query.handle = function (this: Query) {
    if (!started) started = performance.now();
    return handle.call(this);
  };
  // Promise's own `then` (the query's species is Promise): watching does not start the query.
  const done = (failed: boolean) => () => {
    if (started) onStatement((performance.now() - started) / 1000, failed);
  };
  void Promise.prototype.then.call(query, done(false), done(true));
  return query;
}
