import { anyOf } from '../../db/any';
import { defineLoader } from '../../db/loader';
import { byKey } from '../../lib/loaders';
import { spaces, type SpaceRow } from '../../db/schema/spaces';

/** Spaces by id, trashed ones included: services decide what a trashed space means. */
export const spaceById = defineLoader<string, SpaceRow>('spaceById', async (db, ids) =>
  byKey(ids, await db.select().from(spaces).where(anyOf(spaces.id, ids)), (s) => s.id),
);
