import { randomBytes } from 'node:crypto';
import type { Db } from '../../src/db/client';
import type { Role, TeamRole } from '../../src/domain/roles';
import { bootstrapOrganization, upsertMember } from '../../src/modules/members/service';
import { bootstrapTeam } from '../../src/modules/teams/service';
import { createApiToken, ensureUser } from '../../src/modules/users/service';

const unique = () => randomBytes(4).toString('hex');

export interface Actor {
  userId: string;
  email: string;
  token: string;
}

export async function buildUser(db: Db, name = `User ${unique()}`): Promise<Actor> {
  const email = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '.')}.${unique()}@example.com`;
  const { user } = await ensureUser(db, { email, name });
  return { userId: user.id, email: user.email, token: await createApiToken(db, user.id) };
}

export interface OrgFixture {
  organizationId: string;
  admin: Actor;
}

export async function buildOrganization(db: Db, title = `Org ${unique()}`): Promise<OrgFixture> {
  const admin = await buildUser(db, `Admin of ${title}`);
  const org = await bootstrapOrganization(db, { title, adminUserId: admin.userId });
  return { organizationId: org.id, admin };
}

export async function buildMember(db: Db, organizationId: string, role: Role | null, name?: string): Promise<Actor> {
  const actor = await buildUser(db, name ?? `${role ?? 'guest'} ${unique()}`);
  await upsertMember(db, organizationId, actor.userId, role);
  return actor;
}

export async function buildTeam(db: Db, organizationId: string, title: string, members: { userId: string; role: TeamRole }[] = []) {
  return bootstrapTeam(db, organizationId, title, members);
}
