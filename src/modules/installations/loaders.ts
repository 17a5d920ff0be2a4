import { anyOf } from '../../db/any';
import { defineLoader } from '../../db/loader';
import { byKey } from '../../lib/loaders';
import { integrationEvents, type IntegrationEventRow } from '../../db/schema/integration-events';
import { integrationInstallations, type InstallationRow } from '../../db/schema/installations';

/** Installations by id, whoever may see them: services decide that. */
export const installationById = defineLoader<string, InstallationRow>('installationById', async (db, ids) =>
  byKey(ids, await db.select().from(integrationInstallations).where(anyOf(integrationInstallations.id, ids)), (r) => r.id),
);

/** Recorded events by id, whoever may see them: services decide that. */
export const eventById = defineLoader<string, IntegrationEventRow>('integrationEventById', async (db, ids) =>
  byKey(ids, await db.select().from(integrationEvents).where(anyOf(integrationEvents.id, ids)), (r) => r.id),
);
