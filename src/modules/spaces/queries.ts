import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { spaces } from '../../db/schema/spaces';

/**
 * Points the space at a new revision, only if it still points at `from`: the compare-and-set
 * that keeps two writers racing on one space from losing an edit. True when it moved.
 */
export async function advanceSpaceRevision(tx: Tx, spaceId: string, from: string, to: string): Promise<boolean> {
  const moved = await tx
    .update(spaces)
    .set({ revisionId: to })
    .where(and(eq(spaces.id, spaceId), eq(spaces.revisionId, from)))
    .returning({ id: spaces.id });
  return moved.length > 0;
}

/**
 * The revision the space points at now, read afresh; with `lock`, the space row stays locked
 * until the transaction ends, so no other writer moves it meanwhile.
 */
export async function currentRevisionId(tx: Tx, spaceId: string, lock = false): Promise<string | null> {
  const query = tx.select({ revisionId: spaces.revisionId }).from(spaces).where(eq(spaces.id, spaceId));
  const [row] = lock ? await query.for('update') : await query;
  return row?.revisionId ?? null;
}
