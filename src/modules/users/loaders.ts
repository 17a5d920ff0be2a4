import { anyOf } from '../../db/any';
import { defineLoader } from '../../db/loader';
import { byKey } from '../../lib/loaders';
import { users, type UserRow } from '../../db/schema/users';
import type { RequestContext } from '../../context/request-context';

const usersById = defineLoader<string, UserRow>('userById', async (db, ids) =>
  byKey(ids, await db.select().from(users).where(anyOf(users.id, ids)), (u) => u.id),
);

/**
 * Users by id. The viewer's own row came with the session, so what the caller wrote (their change
 * requests, comments) names its author without a statement. Users rows are never updated, so
 * the session's copy is the row.
 */
export function userById(ctx: Pick<RequestContext, 'loaders' | 'viewer'>) {
  const loader = usersById(ctx);
  const me = ctx.viewer?.user;
  if (me) loader.prime(me.id, me);
  return loader;
}
