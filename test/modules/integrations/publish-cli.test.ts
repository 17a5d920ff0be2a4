import { resolve } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresBlobStore } from '../../../src/modules/content/blob-store';
import { integrations } from '../../../src/db/schema/integrations';
import { startTestApp, type TestApp } from '../../support/clients';
import { buildMember, buildOrganization, type Actor, type OrgFixture } from '../../support/factories';
import { FIXTURES, gitbookCli, type Cli } from './support';

/** Publishing with the official CLI, unchanged, against a server the test starts. */
let t: TestApp;
let server: { url: string; stop(): Promise<void> };
let cli: Cli;
let acme: OrgFixture;
let other: OrgFixture;
let reader: Actor;

beforeAll(async () => {
  t = await startTestApp();
  acme = await buildOrganization(t.db, 'Acme');
  other = await buildOrganization(t.db, 'Other');
  reader = await buildMember(t.db, acme.organizationId, 'read', 'Rita Reader');
  server = await t.serve();
  cli = await gitbookCli();
});
afterAll(async () => {
  await cli?.dispose();
  await server?.stop();
  await t?.close();
});

describe('gitbook publish', () => {
  it('authenticates, publishes a TypeScript integration twice and bumps its version', async () => {
    const auth = await cli.run(['auth', '--endpoint', server.url, '--token', acme.admin.token]);
    expect(auth.stdout).toContain('You are now authenticated as');
    const who = await cli.run(['whoami']);
    expect(who.stdout).toContain(`API: ${server.url}`);

    const folder = resolve(FIXTURES, 'quire-notes');
    const first = await cli.run(['publish', '--organization', acme.organizationId], { cwd: folder });
    expect(first.stdout).toContain('Integration "quire-notes" published');

    const got = await t.rest('GET', '/v1/integrations/quire-notes', { token: acme.admin.token });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ object: 'integration', name: 'quire-notes', version: 1, title: 'Quire notes', visibility: 'private', scopes: ['space:content:read', 'space:metadata:read'], categories: ['content'], owner: { id: acme.organizationId }, permissions: { admin: true } });
    expect(got.body.blocks).toEqual([expect.objectContaining({ id: 'note', title: 'Note' })]);
    expect(JSON.stringify(got.body)).not.toContain('fixture-secret-value');

    const [row] = await t.db.select().from(integrations).where(eq(integrations.name, 'quire-notes'));
    expect(row!.runtime).toBe('v2');
    expect(row!.secrets).not.toContain('fixture-secret-value');
    const script = (await new PostgresBlobStore(t.db).get(row!.scriptBlob))!.toString('utf8');
    expect(script).toMatch(/export\s*\{[^}]*as default/);

    // The icon is served from its URL, byte for byte the fixture's PNG.
    const icon = await fetch(got.body.urls.icon.replace(t.config.publicUrl, server.url));
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/png');
    expect(got.body.previewImages).toHaveLength(1);

    const second = await cli.run(['publish', '--organization', acme.organizationId], { cwd: folder });
    expect(second.stdout).toContain('published');
    expect((await t.rest('GET', '/v1/integrations/quire-notes', { token: acme.admin.token })).body.version).toBe(2);
  });

  it('a private integration is seen by its owner members only; others get the missing answer', async () => {
    const mine = await t.rest('GET', '/v1/integrations/quire-notes', { token: reader.token });
    expect(mine.status).toBe(200);
    expect(mine.body.permissions).toEqual({ admin: false });
    const foreign = await t.rest('GET', '/v1/integrations/quire-notes', { token: other.admin.token });
    const missing = await t.rest('GET', '/v1/integrations/no-such-thing', { token: other.admin.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(missing.body);
    const listed = await t.rest('GET', '/v1/integrations', { token: other.admin.token });
    expect(listed.body.items.map((i: { name: string }) => i.name)).not.toContain('quire-notes');
  });

  it('a member who is not an admin cannot publish; nothing is written', async () => {
    const cli2 = await gitbookCli();
    try {
      await cli2.run(['auth', '--endpoint', server.url, '--token', reader.token]);
      await expect(cli2.run(['publish', '--organization', acme.organizationId], { cwd: resolve(FIXTURES, 'quire-notes') })).rejects.toThrow();
      expect((await t.rest('GET', '/v1/integrations/quire-notes', { token: acme.admin.token })).body.version).toBe(2);
    } finally {
      await cli2.dispose();
    }
  });

  it('unpublish answers 204 and the integration is gone', async () => {
    const gone = await t.rest('DELETE', '/v1/integrations/quire-notes', { token: acme.admin.token });
    expect(gone.status).toBe(204);
    expect((await t.rest('GET', '/v1/integrations/quire-notes', { token: acme.admin.token })).status).toBe(404);
  });
});
