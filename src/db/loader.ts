import { DataLoader, LoaderRegistry } from '../lib/loaders';
import type { Db } from './client';

export type Loaders = LoaderRegistry<Db>;

/** The loaders of one request; once `bounds.check()` throws, they start no statement. */
export function createLoaders(db: Db, bounds?: { check(): void }): Loaders {
  return new LoaderRegistry(db, bounds);
}

/**
 * Declares a batched loader once, for every request: `batch` gets the keys asked in one tick and
 * answers one value (or null) per key, in key order.
 */
export function defineLoader<K, V, C = K>(
  name: string,
  batch: (db: Db, keys: readonly K[]) => Promise<(V | null)[]>,
  options?: { cacheKeyFn?: (key: K) => C },
): (ctx: { loaders: Loaders }) => DataLoader<K, V | null, C> {
  const key = Symbol(name);
  const load = (db: Db, bounds: { check(): void } | undefined) => async (keys: readonly K[]) => {
    bounds?.check();
    return batch(db, keys);
  };
  return (ctx) => ctx.loaders.get(key, (db) => new DataLoader<K, V | null, C>(load(db, ctx.loaders.bounds), { cacheKeyFn: options?.cacheKeyFn }));
}
