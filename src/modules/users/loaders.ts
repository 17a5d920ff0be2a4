import { anyOf } from '../../db/any';
import { defineLoader } from '../../db/loader';
import { byKey } from '../../lib/loaders';
import { users, type UserRow } from '../../db/schema/users';

export const userById = defineLoader<string, UserRow>('userById', async (db, ids) =>
  byKey(ids, await db.select().from(users).where(anyOf(users.id, ids)), (u) => u.id),
);
