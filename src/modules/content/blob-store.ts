import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { blobs } from '../../db/schema/content';

/**
 * Where file bytes live, by their SHA-256. PostgreSQL by default (the same database, so a newcomer
 * needs nothing else); an S3-compatible store would implement the same two calls.
 */
export interface BlobStore {
  /** Stores the bytes unless they are there already; answers their hash. */
  put(bytes: Buffer): Promise<string>;
  get(hash: string): Promise<Buffer | null>;
}

export function blobHash(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export class PostgresBlobStore implements BlobStore {
  constructor(private readonly db: Db | Tx) {}

  async put(bytes: Buffer): Promise<string> {
    const hash = blobHash(bytes);
    await this.db.insert(blobs).values({ hash, bytes, size: bytes.length }).onConflictDoNothing();
    return hash;
  }

  async get(hash: string): Promise<Buffer | null> {
    const [row] = await this.db.select({ bytes: blobs.bytes }).from(blobs).where(eq(blobs.hash, hash));
    return row?.bytes ?? null;
  }
}
