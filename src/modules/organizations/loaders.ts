import { anyOf } from '../../db/any';
import { defineLoader } from '../../db/loader';
import { byKey } from '../../lib/loaders';
import { organizations, type OrganizationRow } from '../../db/schema/organizations';

export const organizationById = defineLoader<string, OrganizationRow>('organizationById', async (db, ids) =>
  byKey(ids, await db.select().from(organizations).where(anyOf(organizations.id, ids)), (o) => o.id),
);
