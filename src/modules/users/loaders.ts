import { anyOf } from '../../db/any';
import { byKey, defineLoader } from '../../app/loaders';
import { users, type UserRow } from './table';

export const userById = defineLoader<string, UserRow>('userById', async (db, ids) =>
  byKey(ids, await db.select().from(users).where(anyOf(users.id, ids)), (u) => u.id),
);
