import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { revisions, type RevisionRow } from '../../db/schema/revisions';

/** The empty revision a space is born with. */
export async function createInitialRevision(tx: Tx, spaceId: string, revisionId: string, createdBy: string | null, at: Date): Promise<RevisionRow> {
  const [row] = await tx.insert(revisions).values({ id: revisionId, spaceId, type: 'edits', createdBy, createdAt: at }).returning();
  return row;
}

/**
 * The first revision of a duplicated space: the source revision's content, shared rather than
 * copied (it points at the same lists), with the source as its parent so history shows where it
 * came from.
 */
export async function copyRevision(tx: Tx, sourceRevisionId: string, spaceId: string, revisionId: string, createdBy: string | null, at: Date): Promise<RevisionRow> {
  const [source] = await tx.select().from(revisions).where(eq(revisions.id, sourceRevisionId));
  const [row] = await tx
    .insert(revisions)
    .values({
      id: revisionId,
      spaceId,
      parents: [sourceRevisionId],
      type: 'edits',
      pages: source?.pages ?? null,
      files: source?.files ?? null,
      variables: source?.variables ?? {},
      createdBy,
      createdAt: at,
    })
    .returning();
  return row;
}

/** A new revision. Revisions are never changed after this insert; the database refuses it. */
export async function insertRevision(tx: Tx, values: typeof revisions.$inferInsert): Promise<RevisionRow> {
  const [row] = await tx.insert(revisions).values(values).returning();
  return row;
}

export async function getRevision(tx: Tx, id: string): Promise<RevisionRow | null> {
  const [row] = await tx.select().from(revisions).where(eq(revisions.id, id));
  return row ?? null;
}
