import { anyOf } from '../../db/any';
import { defineLoader } from '../../db/loader';
import { byKey } from '../../lib/loaders';
import { samlProviders, type SamlProviderRow } from '../../db/schema/saml';

export const samlProviderById = defineLoader<string, SamlProviderRow>('samlProviderById', async (db, ids) =>
  byKey(ids, await db.select().from(samlProviders).where(anyOf(samlProviders.id, ids)), (p) => p.id),
);
