import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/clients';
import { gid } from '../../support/doors';
import { buildTeam, type Actor, type OrgFixture } from '../../support/factories';
import { makeIdp, type TestIdp } from '../../support/saml-idp';
import { scenario } from '../../support/scenario';

let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;
let people: Record<'reader', Actor>;
let idp: TestIdp;
let team: string;

beforeAll(async () => {
  ({ t, acme, other, people } = await scenario({ reader: ['read'] }));
  idp = await makeIdp();
  team = (await buildTeam(t.db, acme.organizationId, 'Support')).id;
});
afterAll(async () => t?.close());

const FIELDS = 'samlProvider { id restId label entityId ssoUrl defaultRole defaultTeam { title } serviceEntityId acsUrl startUrl organization { id } }';
const CREATE = `mutation ($input: SamlProviderCreateInput!) { samlProviderCreate(input: $input) { ${FIELDS} userErrors { code field message } } }`;
const UPDATE = `mutation ($input: SamlProviderUpdateInput!) { samlProviderUpdate(input: $input) { ${FIELDS} userErrors { code field message } } }`;
const DELETE = `mutation ($input: SamlProviderDeleteInput!) { samlProviderDelete(input: $input) { deletedSamlProviderId userErrors { code field message } } }`;

const createInput = (extra: Record<string, unknown> = {}) => ({
  organizationId: gid('Organization', acme.organizationId),
  label: 'Azure AD',
  entityId: idp.entityId,
  ssoUrl: idp.ssoUrl,
  certificate: idp.certificate,
  ...extra,
});

describe('SAML providers over GraphQL', () => {
  it('creates a provider, reads it as a node and in the organization connection, updates and deletes it', async () => {
    const created = await t.graphql(CREATE, { input: createInput({ defaultTeamId: gid('Team', team), defaultRole: 'EDIT' }) }, acme.admin.token);
    const provider = created.body.data.samlProviderCreate.samlProvider;
    expect(created.body.data.samlProviderCreate.userErrors).toEqual([]);
    expect(provider).toMatchObject({ label: 'Azure AD', defaultRole: 'EDIT', defaultTeam: { title: 'Support' }, organization: { id: gid('Organization', acme.organizationId) } });
    expect(provider.acsUrl).toBe(`http://quire.test/sso/saml/${provider.restId}/acs`);
    expect(provider.serviceEntityId).toBe(`http://quire.test/sso/saml/${provider.restId}`);

    const node = await t.graphql(`query ($id: ID!) { node(id: $id) { ... on SamlProvider { label } } }`, { id: provider.id }, acme.admin.token);
    expect(node.body.data.node).toEqual({ label: 'Azure AD' });
    const list = await t.graphql(
      `query ($id: ID!) { node(id: $id) { ... on Organization { samlProviders(first: 10) { totalCount edges { node { id } } } } } }`,
      { id: gid('Organization', acme.organizationId) },
      acme.admin.token,
    );
    expect(list.body.data.node.samlProviders.edges.map((e: { node: { id: string } }) => e.node.id)).toContain(provider.id);

    const updated = await t.graphql(UPDATE, { input: { samlProviderId: provider.id, label: 'Entra ID', defaultRole: null, defaultTeamId: null } }, acme.admin.token);
    expect(updated.body.data.samlProviderUpdate.samlProvider).toMatchObject({ label: 'Entra ID', defaultRole: null, defaultTeam: null });

    const deleted = await t.graphql(DELETE, { input: { samlProviderId: provider.id } }, acme.admin.token);
    expect(deleted.body.data.samlProviderDelete).toEqual({ deletedSamlProviderId: provider.id, userErrors: [] });
    const gone = await t.graphql(`query ($id: ID!) { node(id: $id) { id } }`, { id: provider.id }, acme.admin.token);
    expect(gone.body.data.node).toBeNull();
  });

  it('answers typed user errors naming the GraphQL field: a non-PEM certificate, a long label, a foreign team', async () => {
    const otherTeam = (await buildTeam(t.db, other.organizationId, 'Theirs')).id;
    const cases: [Record<string, unknown>, string[], RegExp][] = [
      [{ certificate: 'nope' }, ['certificate'], /X\.509 certificate in PEM/],
      [{ label: 'x'.repeat(31) }, ['label'], /1 to 30/],
      [{ defaultTeamId: gid('Team', otherTeam) }, ['defaultTeamId'], /not a team of this organization/],
      [{ ssoUrl: 'ftp://idp.test' }, ['ssoUrl'], /http\(s\) URL/],
    ];
    for (const [change, field, message] of cases) {
      const res = await t.graphql(CREATE, { input: createInput(change) }, acme.admin.token);
      const payload = res.body.data.samlProviderCreate;
      expect(payload.samlProvider).toBeNull();
      expect(payload.userErrors).toEqual([{ code: 'VALIDATION_FAILED', field, message: expect.stringMatching(message) }]);
    }
  });

  it('refuses a member who is not an admin, and hides providers from other organizations', async () => {
    const refused = await t.graphql(CREATE, { input: createInput() }, people.reader.token);
    expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const created = await t.graphql(CREATE, { input: createInput() }, acme.admin.token);
    const id = created.body.data.samlProviderCreate.samlProvider.id;
    const hidden = await t.graphql(`query ($id: ID!) { node(id: $id) { id } }`, { id }, other.admin.token);
    expect(hidden.body.data.node).toBeNull();
    const update = await t.graphql(UPDATE, { input: { samlProviderId: id, label: 'Mine now' } }, other.admin.token);
    expect(update.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });
});
