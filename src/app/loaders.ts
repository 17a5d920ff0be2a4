import DataLoader from 'dataloader';
import type { Db } from '../db/client';

/**
 * Per-request loader registry. A module declares a loader once with `defineLoader`; the first use
 * in a request builds it, later uses get the same instance, so its batch and cache span the request.
 */
export class Loaders {
  private instances = new Map<symbol, unknown>();

  constructor(readonly db: Db) {}

  private byName = new Map<string, unknown>();

  named<T>(name: string, build: () => T): T {
    let instance = this.byName.get(name) as T | undefined;
    if (!instance) this.byName.set(name, (instance = build()));
    return instance;
  }

  get<T>(key: symbol, build: (db: Db) => T): T {
    let instance = this.instances.get(key) as T | undefined;
    if (!instance) this.instances.set(key, (instance = build(this.db)));
    return instance;
  }
}

export function defineLoader<K, V, C = K>(
  name: string,
  batch: (db: Db, keys: readonly K[]) => Promise<(V | null)[]>,
  options?: { cacheKeyFn?: (key: K) => C },
): (ctx: { loaders: Loaders }) => DataLoader<K, V | null, C> {
  const key = Symbol(name);
  return (ctx) =>
    ctx.loaders.get(key, (db) => new DataLoader<K, V | null, C>((keys) => batch(db, keys), { cacheKeyFn: options?.cacheKeyFn }));
}

/** Orders batch results to match the keys, null where a key found nothing. */
export function byKey<K, V>(keys: readonly K[], rows: V[], keyOf: (row: V) => K): (V | null)[] {
  const map = new Map<K, V>();
  for (const row of rows) map.set(keyOf(row), row);
  return keys.map((k) => map.get(k) ?? null);
}

/**
 * A loader for one argument set of a nested list: every parent asking for the same window in this
 * request joins one batch, and `batch` answers them all with one query.
 */
export function pageLoader<V>(
  ctx: { loaders: Loaders },
  name: string,
  args: unknown,
  batch: (parentIds: readonly string[]) => Promise<Map<string, V | Error>>,
): DataLoader<string, V> {
  const key = `${name}:${JSON.stringify(args)}`;
  return ctx.loaders.named(key, () =>
    new DataLoader<string, V>(async (ids) => {
      const results = await batch(ids);
      return ids.map((id) => results.get(id) ?? new Error(`No page for ${id}`));
    }),
  );
}
