import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { blobs } from '../../db/schema/content';

/*
 * Script bundles and images go to the file store, the `blobs` table by SHA-256, as the content
 * module's blob store keeps them (same hash, same rows); integrations sit below content in the
 * module order, so they write the table directly.
 */
export async function putBlob(db: Db, bytes: Buffer): Promise<string> {
  const hash = createHash('sha256').update(bytes).digest('hex');
  await db.insert(blobs).values({ hash, bytes, size: bytes.length }).onConflictDoNothing();
  return hash;
}

export async function getBlob(db: Db, hash: string): Promise<Buffer | null> {
  const [row] = await db.select({ bytes: blobs.bytes }).from(blobs).where(eq(blobs.hash, hash));
  return row?.bytes ?? null;
}
