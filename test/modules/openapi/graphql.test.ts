import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../support/clients';
import { gid } from '../../support/doors';
import { buildMember, buildOrganization, type Actor, type OrgFixture } from '../../support/factories';
import { mutations } from '../../support/graphql';

/** The registry through GraphQL: publish, read through the organization, update, delete. */
const SPEC = 'openapi: 3.0.3\ninfo: { title: Tiny, version: "1" }\npaths:\n  /ping:\n    get:\n      summary: Ping\n      responses: { "200": { description: pong } }\n';

let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;
let reader: Actor;

beforeAll(async () => {
  t = await startTestApp({}, { jobs: true });
  acme = await buildOrganization(t.db, 'Acme');
  other = await buildOrganization(t.db, 'Other');
  reader = await buildMember(t.db, acme.organizationId, 'read');
});
afterAll(() => t?.close());

const { succeed, userError, refused } = mutations(() => t, { token: () => acme.admin.token });

async function until(query: () => Promise<any>, done: (value: any) => boolean) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const value = await query();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('OpenAPI specs through GraphQL', () => {
  it('publishes, processes, lists, updates and deletes', async () => {
    const { spec, created } = await succeed('openApiSpecPublish', { organizationId: gid('Organization', acme.organizationId), slug: 'tiny', text: SPEC }, 'created spec { id slug processingState }');
    expect(created).toBe(true);
    expect(spec).toMatchObject({ slug: 'tiny', processingState: 'PENDING' });
    const read = () =>
      t.graphql(`query ($id: ID!) { node(id: $id) { ... on OpenAPISpec { processingState lastVersion { title operations { method path summary } } } } }`, { id: spec.id }, reader.token);
    const done = await until(read, (res) => res.body.data.node.processingState === 'COMPLETE');
    expect(done.body.data.node.lastVersion).toEqual({ title: 'Tiny', operations: [{ method: 'GET', path: '/ping', summary: 'Ping' }] });
    const listed = await t.graphql(`query ($id: ID!) { node(id: $id) { ... on Organization { openApiSpecs(first: 5) { totalCount edges { node { slug } } } } } }`, { id: gid('Organization', acme.organizationId) }, reader.token);
    expect(listed.body.data.node.openApiSpecs).toEqual({ totalCount: 1, edges: [{ node: { slug: 'tiny' } }] });
    expect((await succeed('openApiSpecUpdate', { specId: spec.id, visibility: 'PUBLIC' }, 'spec { visibility }')).spec.visibility).toBe('PUBLIC');
    expect((await t.graphql(`query ($id: ID!) { node(id: $id) { id } }`, { id: spec.id }, other.admin.token)).body.data.node).toBeNull();
    await refused('openApiSpecUpdate', { specId: spec.id, visibility: 'PRIVATE' }, reader.token, 'FORBIDDEN');
    expect((await succeed('openApiSpecDelete', { specId: spec.id }, 'deletedSpecId')).deletedSpecId).toBe(spec.id);
  });

  it('answers bad input with user errors naming the field', async () => {
    const org = gid('Organization', acme.organizationId);
    await userError('openApiSpecPublish', { organizationId: org, slug: 'Not A Slug', text: SPEC }, 'VALIDATION_FAILED', ['slug']);
    await userError('openApiSpecPublish', { organizationId: org, slug: 'no-source' }, 'VALIDATION_FAILED', ['url']);
  });
});
