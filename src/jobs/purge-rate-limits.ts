import { purgeRateLimitWindows } from '../db/rate-limits';
import type { JobDefinition } from './job';

/** Deletes the counts of finished rate limit windows, every ten minutes: one row per caller and window. */
export const purgeRateLimitsJob: JobDefinition<{ purged: number }> = {
  name: 'purge-rate-limits',
  cron: '*/10 * * * *',
  async run({ db, now, log }) {
    const purged = await purgeRateLimitWindows(db, now());
    log(`purge-rate-limits: purged ${purged} finished window${purged === 1 ? '' : 's'}`);
    return { purged };
  },
};
