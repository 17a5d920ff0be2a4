import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { canSeeEmail } from '../../access-control/email';
import { requireViewer, type RequestContext } from '../../context/request-context';
import { NotFoundError } from '../../domain/errors';
import { parseInput } from '../../domain/validate';
import { hashToken, newId, newToken } from '../../lib/ids';
import { emailSchema } from '../../domain/email';
import { displayNameSchema } from './input';
import { userById } from './loaders';
import { apiTokens, users, type UserRow } from '../../db/schema/users';

/** Users by id, unchecked: for services that show who did what. */
export { userById } from './loaders';

/**
 * Users are visible to anyone signed in: the platform treats name and avatar as public profile.
 * Their e-mail is not: read it with `userEmail`.
 */
export async function getUser(ctx: RequestContext, id: string): Promise<UserRow> {
  requireViewer(ctx);
  const user = await userById(ctx).load(id);
  if (!user) throw new NotFoundError('User');
  return user;
}

/** The user's e-mail when the viewer may read it (see canSeeEmail), null otherwise. */
export async function userEmail(ctx: RequestContext, user: UserRow): Promise<string | null> {
  return (await canSeeEmail(ctx, user.id)) ? user.email : null;
}

export function getCurrentUser(ctx: RequestContext): UserRow {
  return requireViewer(ctx).user;
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

/**
 * A new personal API token. The plain token is returned once; only its hash is stored. With
 * `scopeOrganizationId` (single sign-on), the token acts in that organization only. System use.
 */
export async function createApiToken(db: Db, userId: string, label?: string, scopeOrganizationId?: string): Promise<string> {
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
  if (!user) throw new NotFoundError('User');
  const token = newToken();
  await db.insert(apiTokens).values({ id: newId(), userId, tokenHash: hashToken(token), label, scopeOrganizationId });
  return token;
}

/**
 * Revokes a token; true when it existed. System use (command line). Every instance forgets the
 * sessions of its user as soon as the database announces the change.
 */
export async function revokeApiToken(db: Db, token: string): Promise<boolean> {
  const deleted = await db.delete(apiTokens).where(eq(apiTokens.tokenHash, hashToken(token))).returning({ id: apiTokens.id });
  return deleted.length > 0;
}

/** How many users the server has; the first start seeds demo data when there are none. System use. */
export async function countUsers(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(users);
  return Number(row.n);
}

/** The id of the user with this e-mail address; NotFoundError names the address otherwise. System use. */
export async function userIdByEmail(db: Db, address: string): Promise<string> {
  const email = parseInput(emailSchema, address, ['email']);
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (!row) throw new NotFoundError(`user with e-mail ${email}`);
  return row.id;
}
