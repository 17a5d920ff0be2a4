import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../support/clients';
import { contentBench, type ContentBench } from '../../support/change-requests';
import { buildOrganization, type OrgFixture } from '../../support/factories';
import { startTranslateServer, type TranslateServer } from '../../support/translate-server';
import { waitForRun } from './support';

/*
 * A run whose provider fails: REST shows the failure (`failure`, beside the spec's `pending`, which
 * has no failed value) instead of a translation pending forever; the run is not retried, and the
 * next run clears it.
 */
let t: TestApp;
let acme: OrgFixture;
let engine: TranslateServer;
let b: ContentBench;

beforeAll(async () => {
  engine = await startTranslateServer();
  t = await startTestApp({}, { jobs: true });
  t.config.translate = { url: engine.url };
  acme = await buildOrganization(t.db, 'Acme');
  b = await contentBench(() => t, () => acme, [{ title: 'Intro', markdown: 'Hello world.' }]);
});
afterAll(async () => {
  await t?.close();
  await engine?.stop();
});

const path = (id = '') => `/v1/orgs/${acme.organizationId}/translations${id ? `/${id}` : ''}`;

describe('a translation run whose provider fails', () => {
  it('REST shows the failure and its reason; a later run that succeeds clears it', async () => {
    const token = acme.admin.token;
    const created = await t.rest('POST', path(), { token, body: { language: 'fr', source: { space: b.spaceId, language: 'en' } } });
    engine.setMode('error');
    expect((await t.rest('POST', `${path(created.body.id)}/run`, { token })).status).toBe(204);
    await waitForRun(t, token, created.body.id);

    const failed = await t.rest('GET', path(created.body.id), { token });
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ status: 'pending', failure: expect.stringMatching(/^The translation provider failed: .*answered 500/) });
    const listed = (await t.rest('GET', path(), { token })).body.items.find((i: { id: string }) => i.id === created.body.id);
    expect(listed.failure).toBe(failed.body.failure);
    // One request for the one batch: the failed run is recorded, not retried.
    expect(engine.requests).toHaveLength(1);

    engine.setMode('translate');
    expect((await t.rest('POST', `${path(created.body.id)}/run`, { token })).status).toBe(204);
    expect((await waitForRun(t, token, created.body.id)).status).toBe('COMPLETED');
    const done = await t.rest('GET', path(created.body.id), { token });
    expect(done.body.status).toBe('completed');
    expect(done.body).not.toHaveProperty('failure');
  });
});
