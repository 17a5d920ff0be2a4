import { anyOf } from '../../db/any';
import { defineLoader } from '../../db/loader';
import { byKey } from '../../lib/loaders';
import { integrations, type IntegrationRow } from '../../db/schema/integrations';

/** Integrations by id, whoever may see them: services decide that. */
export const integrationById = defineLoader<string, IntegrationRow>('integrationById', async (db, ids) =>
  byKey(ids, await db.select().from(integrations).where(anyOf(integrations.id, ids)), (r) => r.id),
);
