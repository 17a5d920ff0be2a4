import { eq, inArray } from 'drizzle-orm';
import type { RequestContext } from '../../app/context';
import type { Db } from '../../db/client';
import { requireViewer } from '../../domain/authz';
import { NotFoundError, UnauthenticatedError } from '../../domain/errors';
import { hashToken, newId, newToken } from '../../domain/ids';
import { parseInput } from '../../domain/validate';
import { displayNameSchema, emailSchema } from './input';
import { userById } from './loaders';
import { apiTokens, users, type UserRow } from './table';

export interface Viewer {
  user: UserRow;
}

/**
 * Resolves `Authorization: Bearer <token>`. No header: anonymous (null). A header that does not
 * carry a valid token is refused outright, so a typo never silently turns into "anonymous".
 */
export async function authenticate(db: Db, header: string | null): Promise<Viewer | null> {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
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

/** Users are visible to anyone signed in: the platform treats name and avatar as public profile. */
export async function getUser(ctx: RequestContext, id: string): Promise<UserRow> {
  requireViewer(ctx);
  const user = await userById(ctx).load(id);
  if (!user) throw new NotFoundError('User');
  return user;
}

export function getCurrentUser(ctx: RequestContext): UserRow {
  return requireViewer(ctx).user;
}

export async function findUsersByEmail(db: Db, emails: string[]): Promise<UserRow[]> {
  if (emails.length === 0) return [];
  return db.select().from(users).where(inArray(users.email, emails));
}

/** The user with this e-mail, created when new. System use: invitations, the command line. */
export async function ensureUser(db: Db, input: { email: string; name?: string }): Promise<{ user: UserRow; created: boolean }> {
  const email = parseInput(emailSchema, input.email, ['email']);
  const name = input.name === undefined ? email.split('@')[0] : parseInput(displayNameSchema, input.name, ['name']);
  const [created] = await db
    .insert(users)
    .values({ id: newId(), email, displayName: name })
    .onConflictDoNothing({ target: users.email })
    .returning();
  if (created) return { user: created, created: true };
  const [existing] = await db.select().from(users).where(eq(users.email, email));
  return { user: existing, created: false };
}

/** A new personal API token. The plain token is returned once; only its hash is stored. */
export async function createApiToken(db: Db, userId: string, label?: string): Promise<string> {
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
  if (!user) throw new NotFoundError('User');
  const token = newToken();
  await db.insert(apiTokens).values({ id: newId(), userId, tokenHash: hashToken(token), label });
  return token;
}
