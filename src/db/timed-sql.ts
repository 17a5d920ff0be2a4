import type { Sql } from 'postgres';

/** Called once per statement when it settles: seconds from being sent to the pool until answered. */
export type StatementTimer = (seconds: number, failed: boolean) => void;

type Query = Promise<unknown> & { handle(): unknown };

/**
 * postgres.js has no hook around a statement, so the client drizzle uses is wrapped: each query
 * from `unsafe` (all of drizzle's, inside transactions and savepoints too) is timed from the moment
 * it is handed to the pool, so the time includes waiting for a free connection, until it settles.
 */
export function timedSql<T extends Sql>(sql: T, onStatement: StatementTimer): T {
  const scope = (inner: Sql): unknown =>
    new Proxy(inner, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver) as unknown;
        if (typeof value !== 'function') return value;
        if (property === 'unsafe') {
          return (...args: unknown[]) => time((value as (...a: unknown[]) => Query)(...args), onStatement);
        }
        if (property === 'begin' || property === 'savepoint') {
          // The callback, always last, gets the transaction's own client: wrapped as well.
          return (...args: unknown[]) => {
            const fn = args.at(-1) as (tx: Sql) => unknown;
            return (value as (...a: unknown[]) => unknown)(...args.slice(0, -1), (tx: Sql) => fn(scope(tx) as Sql));
          };
        }
        return value;
      },
    });
  return scope(sql) as T;
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
