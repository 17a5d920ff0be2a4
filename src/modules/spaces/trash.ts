import { and, isNotNull, lte } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { spaces } from '../../db/schema/spaces';
import type { JobDefinition } from '../../jobs/job';

/*
 * The trash: a deleted space can be restored for a week, then the hourly job deletes it for good.
 */

/** How long a deleted space can be restored before it is purged for good. */
export const RESTORE_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Deletes for good the spaces that have been in the trash for the whole restore window, with their
 * revisions and grants. System use: run by the scheduled purge job.
 */
export async function purgeDeletedSpaces(db: Db, now: Date): Promise<string[]> {
  const cutoff = new Date(now.getTime() - RESTORE_WINDOW_MS);
  const purged = await db
    .delete(spaces)
    .where(and(isNotNull(spaces.deletedAt), lte(spaces.deletedAt, cutoff)))
    .returning({ id: spaces.id });
  return purged.map((p) => p.id);
}


/**
 * Deletes for good the spaces whose restore window is over. Hourly: a space can outlive its
 * window by up to an hour, which nobody can observe since restore already refuses it.
 */
export const purgeDeletedSpacesJob: JobDefinition<{ purged: string[] }> = {
  name: 'purge-deleted-spaces',
  cron: '0 * * * *',
  async run({ db, now, log }) {
    const purged = await purgeDeletedSpaces(db, now());
    log(`purge-deleted-spaces: purged ${purged.length} deleted space${purged.length === 1 ? '' : 's'}`);
    return { purged };
  },
};
