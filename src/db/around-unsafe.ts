import type { Sql } from 'postgres';

export type Unsafe = (query: string, params?: unknown[], options?: { prepare?: boolean }) => unknown;

/**
 * postgres.js has no hook around a statement, so the client drizzle uses is wrapped: `unsafe`
 * (all of drizzle's statements go through it) is replaced by `around(unsafe)`, on the client and
 * on the client of every transaction and savepoint opened from it.
 */
export function aroundUnsafe<T extends Sql>(sql: T, around: (unsafe: Unsafe) => Unsafe): T {
  const scope = (inner: Sql): unknown =>
    new Proxy(inner, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver) as unknown;
        if (typeof value !== 'function') return value;
        if (property === 'unsafe') return around((value as Unsafe).bind(target));
        if (property === 'begin' || property === 'savepoint') {
          // The callback, always last, gets the transaction's own client: wrapped as well.
          return (...args: unknown[]) => {
            const fn = args.at(-1) as (tx: Sql) => unknown;
            return (value as (...a: unknown[]) => unknown).call(target, ...args.slice(0, -1), (tx: Sql) => fn(scope(tx) as Sql));
          };
        }
        return value;
      },
    });
  return scope(sql) as T;
}
