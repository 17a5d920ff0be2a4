import { anyOf } from '../../db/any';
import { defineLoader } from '../../db/loader';
import { byKey } from '../../lib/loaders';
import { changeRequests, type ChangeRequestRow } from '../../db/schema/change-requests';

/** Change requests by id; services check the space they belong to. */
export const changeRequestById = defineLoader<string, ChangeRequestRow>('changeRequestById', async (db, ids) =>
  byKey(ids, await db.select().from(changeRequests).where(anyOf(changeRequests.id, ids)), (r) => r.id),
);
