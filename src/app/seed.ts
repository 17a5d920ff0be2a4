import { createContext } from '../auth/context';
import { loadConfig } from '../config/config';
import type { RequestContext } from '../context/request-context';
import type { Db } from '../db/client';
import { createCollection } from '../modules/collections/service';
import { bootstrapOrganization, upsertMember } from '../modules/members/service';
import { inviteToContent } from '../modules/permissions/service';
import { createSpace, updateSpace } from '../modules/spaces/service';
import { bootstrapTeam } from '../modules/teams/service';
import { countUsers, createApiToken, ensureUser } from '../modules/users/service';
import { seedDemoContent, type DemoSite } from './seed-content';
import { seedDemoDiscussion } from './seed-discussion';

export interface DemoData {
  organizationId: string;
  adminUserId: string;
  token: string;
  /** The demo's published sites, as paths on the server (the share-link one with its key). */
  sites: DemoSite[];
}

/**
 * A collection with two spaces, one of them open only to the Writers team and the guest, and a
 * space at the top level: enough to see default levels and grants at work. Pages with headings,
 * a table, code, an image and links (one broken), and an open change request.
 */
async function seedContent(ctx: RequestContext, editor: RequestContext, organizationId: string, teamId: string, guestId: string): Promise<DemoSite[]> {
  const handbook = await createCollection(ctx, organizationId, { title: 'Handbook' });
  const guide = await createSpace(ctx, organizationId, { title: 'Getting started', emoji: '🚀', parent: handbook.id });
  const drafts = await createSpace(ctx, organizationId, { title: 'Drafts', emoji: '📝', parent: handbook.id });
  await updateSpace(ctx, drafts.id, { defaultLevel: null });
  await inviteToContent(ctx, { kind: 'space', row: drafts }, { role: 'edit', teams: [teamId] });
  await inviteToContent(ctx, { kind: 'space', row: drafts }, { role: 'comment', users: [guestId] });
  const api = await createSpace(ctx, organizationId, { title: 'API reference', emoji: '📚' });
  const sites = await seedDemoContent(ctx, organizationId, { guide: guide.id, api: api.id });
  await seedDemoDiscussion(ctx, editor, guide.id);
  return sites;
}

/** On a database with no users: a demo organization, its admin, a few members, a team and some content. */
export async function seedDemoIfEmpty(db: Db): Promise<DemoData | null> {
  if ((await countUsers(db)) > 0) return null;
  const { user: admin } = await ensureUser(db, { email: 'admin@demo.quire.test', name: 'Ada Admin' });
  const org = await bootstrapOrganization(db, { title: 'Demo Organization', adminUserId: admin.id });
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
  const writers = await bootstrapTeam(db, org.id, 'Writers', [
    { userId: admin.id, role: 'owner' },
    { userId: ids[0], role: 'member' },
  ]);
  const config = loadConfig();
  const editor = createContext({ db, config }, { user: (await ensureUser(db, people[0])).user });
  const sites = await seedContent(createContext({ db, config }, { user: admin }), editor, org.id, writers.id, ids[2]);
  const token = await createApiToken(db, admin.id, 'demo');
  return { organizationId: org.id, adminUserId: admin.id, token, sites };
}
