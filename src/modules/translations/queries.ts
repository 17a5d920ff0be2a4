import { and, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { translationPages, translations, type TranslatedPage, type TranslationRow } from '../../db/schema/translations';

/** A run still queued, or "running", after this long was lost with its job or its worker: it may be queued again. */
export const STALE_RUN_MS = 20 * 60 * 1000;

/**
 * Queues a run unless one is queued or running, and not stale: one statement, so two callers
 * cannot both queue. Answers the row, or undefined when a run was already under way.
 */
export async function markQueued(db: Db, id: string, userId: string, now: Date): Promise<TranslationRow | undefined> {
  const stale = new Date(now.getTime() - STALE_RUN_MS);
  const [row] = await db
    .update(translations)
    .set({ status: 'pending', queuedAt: now, runBy: userId, failure: null, updatedAt: now })
    .where(and(eq(translations.id, id), or(isNull(translations.queuedAt), lt(translations.queuedAt, stale)), or(sql`${translations.status} <> 'running'`, lt(translations.runStartedAt, stale))))
    .returning();
  return row;
}

/** Undoes `markQueued` when the job could not be sent. */
export async function unmarkQueued(db: Db, before: TranslationRow): Promise<void> {
  await db
    .update(translations)
    .set({ status: before.status, queuedAt: null, runBy: before.runBy, failure: before.failure })
    .where(eq(translations.id, before.id));
}

/** Takes a queued run for this worker; undefined when none is queued (a duplicate job, or deleted). */
export async function claimRun(db: Db, id: string, now: Date): Promise<TranslationRow | undefined> {
  const [row] = await db
    .update(translations)
    .set({ status: 'running', queuedAt: null, runStartedAt: now, failure: null, updatedAt: now })
    .where(and(eq(translations.id, id), isNotNull(translations.queuedAt)))
    .returning();
  return row;
}

export async function priorPages(db: Db, translationId: string): Promise<Map<string, { sourceHash: string; translated: TranslatedPage }>> {
  const rows = await db.select().from(translationPages).where(eq(translationPages.translationId, translationId));
  return new Map(rows.map((r) => [r.sourcePageId, { sourceHash: r.sourceHash, translated: r.translated }]));
}

export async function setResultSpace(db: Db, id: string, spaceId: string): Promise<void> {
  await db.update(translations).set({ resultSpaceId: spaceId }).where(eq(translations.id, id));
}

export interface RunOutcome {
  resultRevisionId: string;
  pages: { sourcePageId: string; sourceHash: string; translated: TranslatedPage }[];
  words: number;
  durationMs: number;
}

/** Records a completed run: the pages it translated, and the stats it measured. A translation deleted meanwhile stays deleted. */
export async function recordCompleted(db: Db, id: string, outcome: RunOutcome, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const [kept] = await tx
      .update(translations)
      .set({
        status: 'completed',
        failure: null,
        resultRevisionId: outcome.resultRevisionId,
        runs: sql`${translations.runs} + 1`,
        totalWords: sql`${translations.totalWords} + ${outcome.words}`,
        totalDurationMs: sql`${translations.totalDurationMs} + ${outcome.durationMs}`,
        latestRunDurationMs: outcome.durationMs,
        latestPages: outcome.pages.length,
        latestWords: outcome.words,
        updatedAt: now,
      })
      .where(eq(translations.id, id))
      .returning({ id: translations.id });
    if (!kept) return;
    for (const page of outcome.pages) {
      await tx
        .insert(translationPages)
        .values({ translationId: id, ...page, translatedAt: now })
        .onConflictDoUpdate({ target: [translationPages.translationId, translationPages.sourcePageId], set: { sourceHash: page.sourceHash, translated: page.translated, translatedAt: now } });
    }
    const total = tx.select({ n: sql`count(*)::int` }).from(translationPages).where(eq(translationPages.translationId, id));
    await tx.update(translations).set({ totalPages: sql`(${total})` }).where(eq(translations.id, id));
  });
}

export async function recordFailed(db: Db, id: string, reason: string, now: Date): Promise<void> {
  await db.update(translations).set({ status: 'failed', failure: reason, updatedAt: now }).where(eq(translations.id, id));
}
