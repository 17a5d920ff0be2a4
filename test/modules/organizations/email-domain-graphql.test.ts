import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiToken, ensureUser } from '../../../src/modules/users/service';
import type { TestApp } from '../../support/clients';
import type { Actor, OrgFixture } from '../../support/factories';
import { scenario } from '../../support/scenario';

/** `organizationsByEmailDomain` against its /v1 twin, `GET /v1/email-domains/{emailDomain}/orgs`. */
let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;
let people: Record<'reader', Actor>;
let colleague: string;

const QUERY = 'query ($d: String!) { organizationsByEmailDomain(emailDomain: $d) { id restId title } }';

beforeAll(async () => {
  ({ t, acme, other, people } = await scenario({ reader: ['read', 'Rita Read'] }));
  expect((await t.rest('PATCH', `/v1/orgs/${acme.organizationId}`, { token: acme.admin.token, body: { emailDomains: ['acme-corp.test'] } })).status).toBe(200);
  // Someone of that domain who belongs to no organization yet.
  const { user } = await ensureUser(t.db, { email: 'new.hire@acme-corp.test', name: 'New Hire' });
  colleague = await createApiToken(t.db, user.id);
});
afterAll(() => t?.close());

async function both(domain: string, token: string | null) {
  const rest = await t.rest('GET', `/v1/email-domains/${domain}/orgs`, { token });
  const gql = await t.graphql(QUERY, { d: domain }, token);
  return { rest, gql };
}

describe('organizationsByEmailDomain', () => {
  it('lists the same organizations as REST: members and people of the domain find it', async () => {
    for (const token of [acme.admin.token, people.reader.token, colleague]) {
      const { rest, gql } = await both('acme-corp.test', token);
      expect(rest.status).toBe(200);
      expect(gql.body.errors).toBeUndefined();
      expect(rest.body.organizations.map((o: { id: string }) => o.id)).toEqual([acme.organizationId]);
      expect(gql.body.data.organizationsByEmailDomain).toEqual(rest.body.organizations.map((o: { id: string; title: string }) => ({ id: expect.any(String), restId: o.id, title: o.title })));
    }
  });

  it('shows an outsider nothing of another organization: the same empty answer as a domain nobody uses', async () => {
    const taken = await both('acme-corp.test', other.admin.token);
    const unused = await both('nobody-uses-this.test', other.admin.token);
    expect(taken.rest.body).toEqual(unused.rest.body);
    expect(taken.gql.body.data).toEqual({ organizationsByEmailDomain: [] });
    expect(unused.gql.body.data).toEqual({ organizationsByEmailDomain: [] });
  });

  it('refuses what is not a domain, as REST does, and a caller without a token', async () => {
    const bad = await both('not_a_domain', acme.admin.token);
    expect(bad.rest.status).toBe(400);
    expect(bad.gql.body.data).toBeNull();
    expect(bad.gql.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    const anonymous = await both('acme-corp.test', null);
    expect(anonymous.rest.status).toBe(401);
    expect(anonymous.gql.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });
});
