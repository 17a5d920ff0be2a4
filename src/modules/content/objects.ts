import { createHash } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { contentObjects, type ContentObjectKind } from '../../db/schema/content';

/**
 * The content-addressed object store of revisions: canonical JSON, hashed with its kind. Objects
 * never change, so whatever was read once may be kept: the cache here is per process and shared
 * by every request, even across databases (the same hash is the same content everywhere).
 */
export type Hash = string;

export interface StoredObject {
  kind: ContentObjectKind;
  data: unknown;
}

/** JSON with object keys in order and no undefined values: one text per value, one hash per text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

export function hashObject(kind: ContentObjectKind, json: string): Hash {
  return createHash('sha256').update(kind).update('\n').update(json).digest('hex');
}

/** Objects a write produces, each once, to be stored together. */
export class ObjectBatch {
  private readonly objects = new Map<Hash, { kind: ContentObjectKind; json: string; data: unknown }>();

  put(kind: ContentObjectKind, data: unknown): Hash {
    const json = canonicalJson(data);
    const hash = hashObject(kind, json);
    if (!this.objects.has(hash)) this.objects.set(hash, { kind, json, data: JSON.parse(json) });
    return hash;
  }

  get size(): number {
    return this.objects.size;
  }

  /** Stores what the database does not hold yet; objects it already holds are left as they are. */
  async store(tx: Tx): Promise<void> {
    const rows = [...this.objects].map(([hash, o]) => ({ hash, kind: o.kind, data: o.data, size: Buffer.byteLength(o.json) }));
    for (let i = 0; i < rows.length; i += 500) {
      await tx.insert(contentObjects).values(rows.slice(i, i + 500)).onConflictDoNothing();
    }
    for (const row of rows) remember(row.hash, { kind: row.kind, data: row.data });
  }
}

const CACHE_LIMIT = 50_000;
const cache = new Map<Hash, StoredObject>();

function remember(hash: Hash, object: StoredObject): void {
  if (cache.size >= CACHE_LIMIT) {
    // The oldest tenth at once: V8 keeps a deleted entry in the map until it is rebuilt, and finding
    // the oldest one walks past all of them, so evicting one at a time was quadratic in a full cache
    // (150,000 evictions: 7.9 s).
    let evict = CACHE_LIMIT / 10;
    for (const key of cache.keys()) {
      cache.delete(key);
      if (--evict === 0) break;
    }
  }
  cache.set(hash, object);
}

/** The objects with these hashes, in one statement for those not cached; a missing one is an error. */
export async function loadObjects(db: Db | Tx, hashes: Iterable<Hash>): Promise<Map<Hash, StoredObject>> {
  const found = new Map<Hash, StoredObject>();
  const missing: Hash[] = [];
  for (const hash of new Set(hashes)) {
    const hit = cache.get(hash);
    if (hit) found.set(hash, hit);
    else missing.push(hash);
  }
  if (missing.length) {
    const rows = await db.select({ hash: contentObjects.hash, kind: contentObjects.kind, data: contentObjects.data }).from(contentObjects).where(inArray(contentObjects.hash, missing));
    for (const row of rows) {
      const object = { kind: row.kind, data: row.data };
      remember(row.hash, object);
      found.set(row.hash, object);
    }
    if (rows.length !== missing.length) throw new Error(`content objects missing: ${missing.filter((h) => !found.has(h)).slice(0, 3).join(', ')}`);
  }
  return found;
}

/*
 * Lists (the children of a page, the files of a revision) are chunked where the content says so:
 * a chunk ends after an item whose hash starts with a byte below 16, about one in sixteen, or at
 * 64 items. Inserting or changing one item changes one chunk (and the short list of chunks), not
 * the whole list, so an edit in a list of 1,000 pages stores a few hundred bytes of list.
 */
const MAX_CHUNK = 64;
const endsChunk = (hash: Hash) => parseInt(hash.slice(0, 2), 16) < 16;

interface ListLeaf {
  items: Hash[];
}
interface ListBranch {
  chunks: Hash[];
}

function chunk(items: Hash[]): Hash[][] {
  const chunks: Hash[][] = [];
  let current: Hash[] = [];
  for (const item of items) {
    current.push(item);
    if (endsChunk(item) || current.length === MAX_CHUNK) {
      chunks.push(current);
      current = [];
    }
  }
  if (current.length) chunks.push(current);
  return chunks;
}

/** Stores a list of hashes; null for an empty one. */
export function putList(batch: ObjectBatch, items: Hash[]): Hash | null {
  if (items.length === 0) return null;
  let level = chunk(items).map((c) => batch.put('list', { items: c } satisfies ListLeaf));
  while (level.length > 1) level = chunk(level).map((c) => batch.put('list', { chunks: c } satisfies ListBranch));
  return level[0];
}

/**
 * Reads many lists at once, level by level: one statement per level of chunking for all of them.
 * Answers the items of each list, in order.
 */
export async function readLists(db: Db | Tx, roots: Hash[]): Promise<Map<Hash, Hash[]>> {
  const result = new Map<Hash, Hash[]>();
  let pending = roots.filter((r, i) => roots.indexOf(r) === i);
  const nodes = new Map<Hash, ListLeaf | ListBranch>();
  while (pending.length) {
    const loaded = await loadObjects(db, pending);
    pending = [];
    for (const [hash, object] of loaded) {
      const node = object.data as ListLeaf | ListBranch;
      nodes.set(hash, node);
      if ('chunks' in node) pending.push(...node.chunks.filter((c) => !nodes.has(c)));
    }
  }
  const expand = (hash: Hash): Hash[] => {
    const node = nodes.get(hash)!;
    return 'items' in node ? node.items : node.chunks.flatMap(expand);
  };
  for (const root of roots) result.set(root, expand(root));
  return result;
}
