import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { processLog } from '../../src/lib/log';
import { startTestApp, warmSession, type TestApp } from '../support/clients';
import { buildOrganization, type OrgFixture } from '../support/factories';

let t: TestApp;
let acme: OrgFixture;

beforeAll(async () => {
  t = await startTestApp();
  acme = await buildOrganization(t.db, 'Acme');
});
afterAll(() => t.close());

const create = 'mutation ($input: OrganizationLinkInviteCreateInput!) { organizationLinkInviteCreate(input: $input) { invite { role } } }';
const spaces = 'query ($id: ID!, $n: Int) { organization(id: $id) { spaces(first: $n) { totalCount } } }';

describe('variables of the wrong type', () => {
  it('are refused with HTTP 400 and BAD_USER_INPUT before anything runs, and logged as no crash', async () => {
    // Outside a request scope (no observe layer here) errors go to the process logger.
    const logged = vi.spyOn(processLog(), 'error').mockImplementation(() => {});
    try {
      await warmSession(t, acme.admin.token);
      const before = t.database.counter.count;
      const enumValue = await t.graphql(create, { input: { organizationId: acme.organizationId, role: 'admin' } }, acme.admin.token);
      const notAnInt = await t.graphql(spaces, { id: acme.organizationId, n: 'x' }, acme.admin.token);
      for (const res of [enumValue, notAnInt]) {
        expect(res.status).toBe(400);
        expect(res.body.data).toBeUndefined();
        expect(res.body.errors).toEqual([expect.objectContaining({ message: expect.stringMatching(/^Variable "\$/), extensions: { code: 'BAD_USER_INPUT' } })]);
      }
      expect(t.database.counter.count).toBe(before); // nothing ran, authentication included
      const links = await t.rest('GET', `/v1/orgs/${acme.organizationId}/link-invites`, { token: acme.admin.token });
      expect(links.body.items).toEqual([]);
      expect(logged).not.toHaveBeenCalled();
    } finally {
      logged.mockRestore();
    }
  });
});
