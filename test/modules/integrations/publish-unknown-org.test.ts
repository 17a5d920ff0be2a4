import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../support/clients';
import { gid, mutation } from '../../support/doors';
import { buildOrganization, type OrgFixture } from '../../support/factories';
import { tableFingerprint } from '../../support/surface';
import { FIXTURES, gitbookCli, type Cli } from './support';

/*
 * `gitbook publish -o <org>` for an organization that does not exist, or that the caller cannot
 * see: the official spec lists 404 for POST /v1/integrations/{integrationName}, and both answer it
 * alike. Nothing is written.
 */
let t: TestApp;
let server: { url: string; stop(): Promise<void> };
let cli: Cli;
let acme: OrgFixture;
let other: OrgFixture;

const manifest = (organization: string) => ({ organization, title: 'Notes', description: 'Notes', scopes: ['space:content:read'], script: 'export default { fetch() { return new Response("ok"); } };' });

beforeAll(async () => {
  t = await startTestApp();
  acme = await buildOrganization(t.db, 'Acme');
  other = await buildOrganization(t.db, 'Other');
  server = await t.serve();
  cli = await gitbookCli();
});
afterAll(async () => {
  await cli?.dispose();
  await server?.stop();
  await t?.close();
});

describe('publishing for an organization that does not exist', () => {
  it('answers 404 in the error shape, exactly as for an organization the caller cannot see; nothing is written', async () => {
    const before = await tableFingerprint(t);
    const missing = await t.rest('POST', '/v1/integrations/lost-notes', { token: acme.admin.token, body: manifest('no-such-org') });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: { code: 404, message: expect.stringContaining('no-such-org') } });
    const hidden = await t.rest('POST', '/v1/integrations/lost-notes', { token: acme.admin.token, body: manifest(other.organizationId) });
    expect(hidden.status).toBe(404);
    expect(hidden.body.error.message.replace(other.organizationId, 'no-such-org')).toBe(missing.body.error.message);
    expect(await tableFingerprint(t)).toBe(before);
  });

  it('GraphQL integrationPublish answers NOT_FOUND alike for a missing and a hidden organization', async () => {
    const publish = (organizationId: string) => {
      const { organization: _, ...rest } = manifest(organizationId);
      const call = mutation('integrationPublish', { name: 'lost-notes', organizationId: gid('Organization', organizationId), ...rest });
      return t.graphql(call.query, call.variables, acme.admin.token);
    };
    const [missing, hidden] = [await publish('noSuchOrg00000000000'), await publish(other.organizationId)];
    expect(missing.body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect(hidden.body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect(hidden.body.errors[0].message.replace(other.organizationId, 'noSuchOrg00000000000')).toBe(missing.body.errors[0].message);
  });

  it('the official CLI (`gitbook publish -o`) fails and publishes nothing', async () => {
    await cli.run(['auth', '--endpoint', server.url, '--token', acme.admin.token]);
    const failed = await cli.run(['publish', '-o', 'no-such-org'], { cwd: resolve(FIXTURES, 'quire-notes') }).then(
      () => null,
      (error: { stdout?: string; stderr?: string }) => `${error.stdout ?? ''}${error.stderr ?? ''}`,
    );
    expect(failed).toMatch(/404|not found/i);
    expect((await t.rest('GET', '/v1/integrations/quire-notes', { token: acme.admin.token })).status).toBe(404);
  });
});
