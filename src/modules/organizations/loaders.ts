import { anyOf } from '../../db/any';
import { byKey, defineLoader } from '../../app/loaders';
import { organizations, type OrganizationRow } from './table';

export const organizationById = defineLoader<string, OrganizationRow>('organizationById', async (db, ids) =>
  byKey(ids, await db.select().from(organizations).where(anyOf(organizations.id, ids)), (o) => o.id),
);
