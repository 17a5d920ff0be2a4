import type { Tx } from '../../db/client';
import { revisions, type RevisionRow } from './table';

/** The empty revision a space is born with. */
export async function createInitialRevision(tx: Tx, spaceId: string, revisionId: string, createdBy: string | null, at: Date): Promise<RevisionRow> {
  const [row] = await tx.insert(revisions).values({ id: revisionId, spaceId, type: 'initial', createdBy, createdAt: at }).returning();
  return row;
}

/**
 * The first revision of a duplicated space: a copy of the source revision's content, with the
 * source as its parent so history shows where it came from.
 */
export async function copyRevision(tx: Tx, sourceRevisionId: string, spaceId: string, revisionId: string, createdBy: string | null, at: Date): Promise<RevisionRow> {
  const [row] = await tx
    .insert(revisions)
    .values({ id: revisionId, spaceId, parentId: sourceRevisionId, type: 'duplicate', createdBy, createdAt: at })
    .returning();
  return row;
}
