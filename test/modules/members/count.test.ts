import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../../src/db/rows';
import { startTestApp, type TestApp } from '../../support/clients';
import { buildOrganization, type OrgFixture } from '../../support/factories';
import { gid } from '../../support/doors';

/**
 * `members { totalCount }` answers from a counter the database keeps on every membership written
 * or removed (migration 0022), not by counting rows: it must stay right through invites and
 * removals, in the request that made them and in the next ones of the same cached session.
 */
let t: TestApp;
let acme: OrgFixture;

beforeAll(async () => {
  t = await startTestApp();
  acme = await buildOrganization(t.db, 'Counted');
});
afterAll(() => t.close());

const countQuery = 'query ($id: ID!) { organization(id: $id) { members { totalCount } readers: members(role: READ) { totalCount } } }';

async function counts() {
  const res = await t.graphql(countQuery, { id: acme.organizationId }, acme.admin.token);
  expect(res.body.errors).toBeUndefined();
  const org = res.body.data.organization;
  return { all: org.members.totalCount, readers: org.readers.totalCount };
}

describe('the member count', () => {
  it('follows invites and removals, in the same request and after it', async () => {
    expect(await counts()).toEqual({ all: 1, readers: 0 });

    const invite = await t.graphql(
      `mutation ($input: OrganizationInviteUsersInput!) { organizationInviteUsers(input: $input) {
        invitedCount members { id organization { members { totalCount } } } userErrors { message } } }`,
      { input: { organizationId: gid('Organization', acme.organizationId), role: 'READ', invitees: [{ email: 'ann@counted.test' }, { email: 'ben@counted.test' }, { email: 'ann@counted.test' }] } },
      acme.admin.token,
    );
    const payload = invite.body.data.organizationInviteUsers;
    expect(payload.userErrors).toEqual([]);
    expect(payload.invitedCount).toBe(2);
    // Read in the request that wrote: the organization is read again, not taken from the session.
    expect(payload.members[0].organization.members.totalCount).toBe(3);
    expect(await counts()).toEqual({ all: 3, readers: 2 });

    // Inviting someone already a member adds nobody.
    await t.graphql(
      `mutation ($input: OrganizationInviteUsersInput!) { organizationInviteUsers(input: $input) { invitedCount } }`,
      { input: { organizationId: gid('Organization', acme.organizationId), invitees: [{ email: 'ben@counted.test' }] } },
      acme.admin.token,
    );
    expect(await counts()).toEqual({ all: 3, readers: 2 });

    const removed = await t.graphql(
      `mutation ($input: MemberRemoveInput!) { memberRemove(input: $input) { organization { members { totalCount } } userErrors { message } } }`,
      { input: { memberId: payload.members[1].id } },
      acme.admin.token,
    );
    expect(removed.body.data.memberRemove.userErrors).toEqual([]);
    expect(removed.body.data.memberRemove.organization.members.totalCount).toBe(2);
    expect(await counts()).toEqual({ all: 2, readers: 1 });
  });

  it('matches the rows of every organization, however they were written', async () => {
    const other = await buildOrganization(t.db, 'Counted too');
    const list = rowsOf(
      await t.db.execute(sql`select o.members_count, (select count(*)::int from organization_members m where m.organization_id = o.id) as counted
        from organizations o where o.id in (${acme.organizationId}, ${other.organizationId})`),
    );
    expect(list).toHaveLength(2);
    for (const row of list) expect(row.members_count).toBe(row.counted);
  });
});
