/** Validation messages say what is wrong in words a caller can act on, through both doors. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/clients';
import { buildOrganization } from '../support/factories';

let t: TestApp;
let org: Awaited<ReturnType<typeof buildOrganization>>;
beforeAll(async () => {
  t = await startTestApp();
  org = await buildOrganization(t.db);
});
afterAll(() => t.close());

describe('validation messages', () => {
  it('a missing title is required (REST)', async () => {
    const res = await t.rest('PUT', `/v1/orgs/${org.organizationId}/teams`, { token: org.admin.token, body: {} });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 400, message: 'title is required' } });
  });

  it('a bad invite address is named (REST), and nobody is invited', async () => {
    const body = { emails: ['fine@example.com', 'not-an-address'], role: 'read' };
    const res = await t.rest('POST', `/v1/orgs/${org.organizationId}/invites`, { token: org.admin.token, body });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('emails.1: email must be a valid e-mail address: "not-an-address"');
    const members = await t.rest('GET', `/v1/orgs/${org.organizationId}/members`, { token: org.admin.token });
    expect(JSON.stringify(members.body)).not.toContain('fine@example.com');
  });

  it('a bad invite address is named (GraphQL)', async () => {
    const res = await t.graphql(
      `mutation($id: ID!) { organizationInviteUsers(input: { organizationId: $id, invitees: [{ email: "a@b.c" }, { email: "nope" }] }) { invitedCount userErrors { code message } } }`,
      { id: Buffer.from(`Organization:${org.organizationId}`).toString('base64') },
      org.admin.token,
    );
    const payload = res.body.data.organizationInviteUsers;
    expect(payload.invitedCount).toBeNull();
    expect(payload.userErrors).toEqual([{ code: 'VALIDATION_FAILED', message: 'email must be a valid e-mail address: "nope"' }]);
  });
});
