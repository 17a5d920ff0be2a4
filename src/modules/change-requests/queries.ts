import { and, eq, exists, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { byTimeThenId, keysetPage, keysetPages, type KeysetSpec } from '../../db/keyset';
import type { Page, PageArgs } from '../../domain/page';
import type { ChangeRequestStatus } from '../../domain/change-requests';
import { changeRequestContributors, changeRequests, type ChangeRequestRow } from '../../db/schema/change-requests';

/** Statuses whose content may still change. */
export const EDITABLE: ChangeRequestStatus[] = ['draft', 'open'];

/**
 * A new change request numbered one past the space's last. Two made at the same moment would take
 * the same number: the unique index refuses the second, which takes the next one.
 */
export async function insertChangeRequest(db: Db, values: Omit<typeof changeRequests.$inferInsert, 'number'>): Promise<ChangeRequestRow> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(changeRequests)
          .values({ ...values, number: sql`(select coalesce(max(${changeRequests.number}), 0) + 1 from ${changeRequests} where ${changeRequests.spaceId} = ${values.spaceId})` })
          .returning();
        if (values.createdBy) await addContributor(tx, row.id, values.createdBy, row.createdAt);
        return row;
      });
    } catch (error) {
      if ((error as { code?: string }).code !== '23505' || attempt === 5) throw error;
    }
  }
}

export async function addContributor(tx: Tx, changeRequestId: string, userId: string, at: Date): Promise<void> {
  await tx.insert(changeRequestContributors).values({ changeRequestId, userId, firstContributedAt: at }).onConflictDoNothing();
}

/** By id, or by number within the space when the reference is all digits. */
export async function findChangeRequest(db: Db, spaceId: string, reference: string): Promise<ChangeRequestRow | null> {
  const match = /^\d{1,9}$/.test(reference) ? eq(changeRequests.number, Number(reference)) : eq(changeRequests.id, reference);
  const [row] = await db.select().from(changeRequests).where(and(eq(changeRequests.spaceId, spaceId), match));
  return row ?? null;
}

/** The change request whose merge wrote this revision. */
export async function findMergedInto(db: Db, revisionId: string): Promise<ChangeRequestRow | null> {
  const [row] = await db.select().from(changeRequests).where(eq(changeRequests.revisionMerged, revisionId));
  return row ?? null;
}

export const changeRequestOrder = byTimeThenId<ChangeRequestRow>(changeRequests.createdAt, (r) => r.createdAt, changeRequests.id);

/** A space's change requests of one status, newest first, optionally those a user contributed to. */
export function listChangeRequests(db: Db, spaceId: string, filter: { status: ChangeRequestStatus; contributor?: string }, args: PageArgs, max: number): Promise<Page<ChangeRequestRow>> {
  const conditions: SQL[] = [eq(changeRequests.spaceId, spaceId), eq(changeRequests.status, filter.status)];
  if (filter.contributor) {
    const contributed = db
      .select({ one: sql`1` })
      .from(changeRequestContributors)
      .where(and(eq(changeRequestContributors.changeRequestId, changeRequests.id), eq(changeRequestContributors.userId, filter.contributor)));
    conditions.push(exists(contributed));
  }
  const spec: KeysetSpec<ChangeRequestRow> = { table: changeRequests, keys: changeRequestOrder, direction: 'desc', where: and(...conditions) };
  return keysetPage(db, spec, args, max);
}

/** The same window of change requests of one status of many spaces, in one statement. */
export function listChangeRequestsOfSpaces(db: Db, spaceIds: readonly string[], status: ChangeRequestStatus, args: PageArgs, max: number): Promise<Map<string, Page<ChangeRequestRow>>> {
  const spec = { table: changeRequests, keys: changeRequestOrder, direction: 'desc' as const, where: eq(changeRequests.status, status), partition: changeRequests.spaceId, parentIds: spaceIds, parentOf: (r: ChangeRequestRow) => r.spaceId };
  return keysetPages(db, spec, args, max);
}

export async function updateChangeRequestRow(db: Db | Tx, id: string, changes: Partial<Pick<ChangeRequestRow, 'subject' | 'status' | 'updatedAt'>>): Promise<ChangeRequestRow> {
  const [row] = await db.update(changeRequests).set(changes).where(eq(changeRequests.id, id)).returning();
  return row;
}

/** The change request's current revision, while it is editable; null otherwise. With `lock`, held until the transaction ends. */
export async function editableRevision(db: Db | Tx, id: string, lock: boolean): Promise<{ revisionId: string; status: ChangeRequestStatus } | null> {
  const query = db.select({ revisionId: changeRequests.revisionId, status: changeRequests.status }).from(changeRequests).where(eq(changeRequests.id, id));
  const [row] = lock ? await query.for('update') : await query;
  return row ?? null;
}

/** Moves the change request's revision by compare-and-set, while it is editable. */
export async function advanceChangeRequest(tx: Tx, id: string, from: string, to: string, at: Date, changes: Partial<Pick<ChangeRequestRow, 'revisionMergedAncestor'>> = {}): Promise<boolean> {
  const moved = await tx
    .update(changeRequests)
    .set({ revisionId: to, updatedAt: at, ...changes })
    .where(and(eq(changeRequests.id, id), eq(changeRequests.revisionId, from), inArray(changeRequests.status, EDITABLE)))
    .returning({ id: changeRequests.id });
  return moved.length > 0;
}

/**
 * Marks the change request merged into `revisionMerged`, only if it is still editable and still at
 * the revision that was merged: an edit or a merge that landed meanwhile makes this false.
 */
export async function markMerged(tx: Tx, id: string, proposed: string, mergedRevision: string, at: Date): Promise<boolean> {
  const merged = await tx
    .update(changeRequests)
    .set({ status: 'merged', revisionMerged: mergedRevision, updatedAt: at })
    .where(and(eq(changeRequests.id, id), eq(changeRequests.revisionId, proposed), inArray(changeRequests.status, EDITABLE)))
    .returning({ id: changeRequests.id });
  return merged.length > 0;
}

/** Contributors of many change requests, in one statement: user ids per change request, in order of contribution. */
export async function contributorsOf(db: Db, ids: readonly string[]): Promise<Map<string, string[]>> {
  const rows = await db
    .select()
    .from(changeRequestContributors)
    .where(inArray(changeRequestContributors.changeRequestId, [...ids]))
    .orderBy(changeRequestContributors.firstContributedAt, changeRequestContributors.userId);
  const byRequest = new Map<string, string[]>(ids.map((id) => [id, []]));
  for (const row of rows) byRequest.get(row.changeRequestId)?.push(row.userId);
  return byRequest;
}
