import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role, TeamRole } from '../../src/domain/roles';
import { upsertMember } from '../../src/modules/members/service';
import { startTestApp, type TestApp } from '../support/clients';
import { buildMember, buildOrganization, buildTeam, buildUser, type Actor } from '../support/factories';

/**
 * Statements one request may cost, whatever the number of rows. The exact count can move by one or
 * two between runs: a DataLoader batches what is asked within one tick, and whether two waves of
 * user lookups share a tick depends on when Postgres answers. A lookup per row would cost hundreds.
 */
const MAX_STATEMENTS = 20;

// Pages large enough for every row of the test, and no larger: the cost limit counts the pages asked for.
const NESTED = `{ viewer { organizations(first: 10) { edges { node {
  title
  viewerPermissions { admin ownTeam listMembers }
  members(first: 20) { totalCount edges { node { role teamCount user { displayName email } organization { title } } } }
  teams(first: 10) { totalCount edges { node { title memberCount viewerCanAdminister
    members(first: 10) { edges { node { role user { displayName } member { role } } } } } } }
} } } } }`;

let t: TestApp;
let viewer: Actor;
const organizationIds: string[] = [];

/**
 * An organization the viewer belongs to with `role`, `members` other members and `teams` teams of
 * three; when the viewer is not an admin they own the first team, so team authorization takes both paths.
 */
async function addOrganization(role: Role, members: number, teams: number) {
  const { organizationId } = await buildOrganization(t.db);
  await upsertMember(t.db, organizationId, viewer.userId, role);
  organizationIds.push(organizationId);
  const people: Actor[] = [];
  for (let i = 0; i < members; i++) people.push(await buildMember(t.db, organizationId, i % 2 ? 'edit' : 'read'));
  for (let i = 0; i < teams; i++) await addTeam(organizationId, people, i);
}

async function addTeam(organizationId: string, people: Actor[], index: number) {
  const team = people.slice(index % people.length, (index % people.length) + 3).map((p) => ({ userId: p.userId, role: 'member' as TeamRole }));
  if (index === 0) team.push({ userId: viewer.userId, role: 'owner' });
  await buildTeam(t.db, organizationId, `Team ${index}`, team);
}

/** Runs the nested query and returns its data and how many SQL statements it took. */
async function measure() {
  const statements: string[] = [];
  const counter = t.database.counter;
  const logQuery = counter.logQuery;
  // Keeps counting, and also remembers each statement so that a failure can list them.
  Object.assign(counter, {
    logQuery(query: string) {
      statements.push(query);
      logQuery.call(counter);
    },
  });
  try {
    counter.count = 0;
    const res = await t.graphql(NESTED, {}, viewer.token);
    const count = counter.count;
    expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
    return { data: res.body.data, count, statements };
  } finally {
    counter.logQuery = logQuery;
  }
}

type Data = Awaited<ReturnType<typeof measure>>['data'];
const shape = (data: Data) =>
  data.viewer.organizations.edges.map(({ node }: any) => ({
    members: node.members.edges.length,
    totalMembers: node.members.totalCount,
    teams: node.teams.edges.length,
    teamMembers: node.teams.edges.reduce((n: number, e: any) => n + e.node.members.edges.length, 0),
  }));

beforeAll(async () => {
  t = await startTestApp();
  viewer = await buildUser(t.db, 'Vera Viewer');
  await addOrganization('admin', 4, 2);
  await addOrganization('read', 4, 2);
  await addOrganization('edit', 4, 2);
});
afterAll(() => t.close());

describe('nested organization query', () => {
  it('costs a bounded number of statements however many rows it returns', async () => {
    const small = await measure();
    expect(shape(small.data)).toEqual([
      { members: 6, totalMembers: 6, teams: 2, teamMembers: 7 },
      { members: 6, totalMembers: 6, teams: 2, teamMembers: 7 },
      { members: 6, totalMembers: 6, teams: 2, teamMembers: 7 },
    ]);

    await addOrganization('read', 9, 5);
    await addOrganization('admin', 7, 4);
    for (const organizationId of organizationIds.slice(0, 3)) {
      const people: Actor[] = [];
      for (let i = 0; i < 5; i++) people.push(await buildMember(t.db, organizationId, 'comment'));
      for (let i = 2; i < 5; i++) await addTeam(organizationId, people, i);
    }
    const large = await measure();
    const rows = (data: Data) => shape(data).reduce((n: number, s: any) => n + s.members + s.teams + s.teamMembers, 0);
    console.log(
      `nested query: ${small.count} statements for ${rows(small.data)} rows, ${large.count} statements for ${rows(large.data)} rows`,
    );
    expect(rows(large.data)).toBeGreaterThan(2 * rows(small.data));
    expect(small.count).toBeLessThanOrEqual(MAX_STATEMENTS);
    expect(large.count, `statements:\n${large.statements.join('\n')}`).toBeLessThanOrEqual(MAX_STATEMENTS);
  });

  it('answers what each role may do in each organization', async () => {
    const { data } = await measure();
    const byRole = data.viewer.organizations.edges.map(({ node }: any) => ({
      permissions: node.viewerPermissions,
      canAdminister: node.teams.edges.map((e: any) => e.node.viewerCanAdminister),
    }));
    expect(byRole[0]).toEqual({ permissions: { admin: true, ownTeam: true, listMembers: true }, canAdminister: [true, true, true, true, true] });
    expect(byRole[1]).toEqual({ permissions: { admin: false, ownTeam: true, listMembers: true }, canAdminister: [true, false, false, false, false] });
    const member = data.viewer.organizations.edges[0].node.members.edges[0].node;
    expect(member.organization.title).toBe(data.viewer.organizations.edges[0].node.title);
  });
});
