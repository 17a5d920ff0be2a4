import DataLoader from 'dataloader';

/**
 * Per-request loader registry. A loader is declared once (`defineLoader` in src/db/loader.ts); the
 * first use in a request builds it, later uses get the same instance, so its batch and its cache
 * span the request and never outlive it.
 */
export class LoaderRegistry<D> {
  private readonly instances = new Map<symbol | string, unknown>();

  /** `bounds.check()` throws once the request's work has stopped: batches then load nothing more. */
  constructor(
    readonly db: D,
    readonly bounds?: { check(): void },
  ) {}

  get<T>(key: symbol | string, build: (db: D) => T): T {
    let instance = this.instances.get(key) as T | undefined;
    if (!instance) this.instances.set(key, (instance = build(this.db)));
    return instance;
  }

  /** Drops one entry, so the next `get` builds it afresh. */
  forget(key: symbol | string): void {
    this.instances.delete(key);
  }
}

/** Orders batch results to match the keys, null where a key found nothing. */
export function byKey<K, V>(keys: readonly K[], rows: readonly V[], keyOf: (row: V) => K): (V | null)[] {
  const map = new Map<K, V>();
  for (const row of rows) map.set(keyOf(row), row);
  return keys.map((k) => map.get(k) ?? null);
}

export { DataLoader };
