import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { Viewer } from '../context/request-context';
import { UnauthenticatedError } from '../domain/errors';
import { hashToken } from '../lib/ids';
import { apiTokens, users } from '../modules/users/table';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Resolves `Authorization: Bearer <token>`. No header: anonymous (null). A header that does not
 * carry a valid token is refused outright, so a typo never silently turns into "anonymous".
 */
export async function authenticate(db: Db, header: string | null): Promise<Viewer | null> {
  if (!header) return null;
  const match = BEARER.exec(header);
  if (!match) throw new UnauthenticatedError('Malformed Authorization header: expected "Bearer <token>"');
  const [row] = await db
    .select({ user: users })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(eq(apiTokens.tokenHash, hashToken(match[1])))
    .limit(1);
  if (!row) throw new UnauthenticatedError('Invalid or revoked API token');
  return { user: row.user };
}
