import { DataLoader, LoaderRegistry } from '../lib/loaders';
import type { Db } from './client';

export type Loaders = LoaderRegistry<Db>;

export function createLoaders(db: Db): Loaders {
  return new LoaderRegistry(db);
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
  return (ctx) => ctx.loaders.get(key, (db) => new DataLoader<K, V | null, C>((keys) => batch(db, keys), { cacheKeyFn: options?.cacheKeyFn }));
}
