import { purgeDeletedSpaces } from '../modules/spaces/service';
import type { JobDefinition } from './job';

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
