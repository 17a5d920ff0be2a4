import type { Db } from '../db/client';
import { upsertMember } from '../modules/members/service';
import { countUsers, createOrganizationWithAdmin } from '../modules/organizations/service';
import { createApiToken, ensureUser } from '../modules/users/service';
import { bootstrapTeam } from '../modules/teams/service';

export interface DemoData {
  organizationId: string;
  adminUserId: string;
  token: string;
}

/** On a database with no users: a demo organization, its admin, a few members and a team. */
export async function seedDemoIfEmpty(db: Db): Promise<DemoData | null> {
  if ((await countUsers(db)) > 0) return null;
  const { user: admin } = await ensureUser(db, { email: 'admin@demo.quire.test', name: 'Ada Admin' });
  const org = await createOrganizationWithAdmin(db, { title: 'Demo Organization', adminUserId: admin.id });
  const people = [
    { email: 'erin@demo.quire.test', name: 'Erin Editor', role: 'edit' as const },
    { email: 'rex@demo.quire.test', name: 'Rex Reader', role: 'read' as const },
    { email: 'gus@demo.quire.test', name: 'Gus Guest', role: null },
  ];
  const ids: string[] = [];
  for (const p of people) {
    const { user } = await ensureUser(db, p);
    await upsertMember(db, org.id, user.id, p.role);
    ids.push(user.id);
  }
  await bootstrapTeam(db, org.id, 'Writers', [
    { userId: admin.id, role: 'owner' },
    { userId: ids[0], role: 'member' },
  ]);
  const token = await createApiToken(db, admin.id, 'demo');
  return { organizationId: org.id, adminUserId: admin.id, token };
}
