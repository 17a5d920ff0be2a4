import { GitBookAPI, GitBookAPIError, TranslationLanguage } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentBench, type ContentBench } from '../support/change-requests';
import { startTestApp, type TestApp } from '../support/clients';
import { buildMember, buildOrganization, type Actor, type OrgFixture } from '../support/factories';
import { validateResponse } from '../support/openapi';
import { startTranslateServer, type TranslateServer } from '../support/translate-server';
import { waitForRun } from '../modules/translations/support';

/** The six translation operations through the official client, unmodified, over real HTTP. */
let t: TestApp;
let server: { url: string; stop(): Promise<void> };
let engine: TranslateServer;
let acme: OrgFixture;
let reader: Actor;
let admin: GitBookAPI;
let readerApi: GitBookAPI;
let b: ContentBench;

const FORMAL = {
  object: 'document' as const,
  data: { schemaVersion: 1 },
  nodes: [{ object: 'block', type: 'paragraph', isVoid: false, data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Use a formal tone.', marks: [] }] }] }],
};

beforeAll(async () => {
  engine = await startTranslateServer();
  t = await startTestApp({}, { jobs: true });
  t.config.translate = { url: engine.url };
  t.config.fetchAllowHosts = [engine.host];
  acme = await buildOrganization(t.db, 'Acme');
  reader = await buildMember(t.db, acme.organizationId, 'read', 'Rita Reader');
  b = await contentBench(() => t, () => acme, [{ title: 'Intro', markdown: 'Hello `code` world.' }]);
  server = await t.serve();
  admin = new GitBookAPI({ endpoint: server.url, authToken: acme.admin.token });
  readerApi = new GitBookAPI({ endpoint: server.url, authToken: reader.token });
});
afterAll(async () => {
  await server?.stop();
  await t?.close();
  await engine?.stop();
});

describe('translations through the official GitBookAPI client', () => {
  it('creates, lists, reads, updates, runs and deletes a translation', async () => {
    const org = acme.organizationId;
    const { data: created, status } = await admin.orgs.createTranslation(org, { language: TranslationLanguage.De, source: { space: b.spaceId, language: TranslationLanguage.En } });
    expect(status).toBe(201);
    validateResponse('POST', `/v1/orgs/${org}/translations`, 201, created);
    expect(created).toMatchObject({ object: 'translation', status: 'pending', language: 'de', source: { space: b.spaceId, language: 'en' }, permissions: { view: true, edit: true } });
    expect(created.instructions).toEqual({ object: 'document', data: { schemaVersion: 1 }, nodes: [] });

    const { data: list } = await readerApi.orgs.listTranslations(org);
    validateResponse('GET', `/v1/orgs/${org}/translations`, 200, list);
    expect(list.items.map((i) => i.id)).toEqual([created.id]);
    expect(list.items[0]!.permissions).toEqual({ view: true, edit: false });

    const { data: updated } = await admin.orgs.updateTranslation(org, created.id, { instructions: FORMAL as never });
    validateResponse('PUT', `/v1/orgs/${org}/translations/${created.id}`, 200, updated);
    expect(updated.instructions).toEqual(FORMAL);

    const ran = await admin.orgs.runTranslation(org, created.id);
    expect(ran.status).toBe(204);
    expect((await waitForRun(t, acme.admin.token, created.id)).status).toBe('COMPLETED');

    const { data: got } = await readerApi.orgs.getTranslation(org, created.id);
    validateResponse('GET', `/v1/orgs/${org}/translations/${created.id}`, 200, got);
    expect(got).toMatchObject({ status: 'completed', instructions: FORMAL, stats: { runs: 1, totalPages: 1, latestPages: 1, totalWords: 3, latestWords: 3 } });
    expect(got.result?.space).toEqual(expect.any(String));
    expect(engine.texts()).toEqual(['Intro', 'Hello', 'world.']);

    const deleted = await admin.orgs.deleteTranslation(org, created.id);
    expect(deleted.status).toBe(204);
    const again = await admin.orgs.deleteTranslation(org, created.id);
    expect(again.status).toBe(204);
    await expect(readerApi.orgs.getTranslation(org, created.id)).rejects.toMatchObject({ code: 404 });
    // The translated space outlives its translation.
    const { data: space } = await admin.spaces.getSpaceById(got.result!.space);
    expect(space.title).toBe('Merge bench (de)');
  });

  it('answers the platform errors: 404 for a missing one, 400 for bad input, 403 for a reader', async () => {
    const org = acme.organizationId;
    const missing = await admin.orgs.getTranslation(org, 'doesNotExist00000000').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(GitBookAPIError);
    expect(missing).toMatchObject({ code: 404 });
    const bad = await admin.orgs.createTranslation(org, { language: 'xx' as TranslationLanguage, source: { space: b.spaceId, language: TranslationLanguage.En } }).catch((e: unknown) => e);
    expect(bad).toMatchObject({ code: 400 });
    const refused = await readerApi.orgs.createTranslation(org, { language: TranslationLanguage.Fr, source: { space: b.spaceId, language: TranslationLanguage.En } }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 403 });
  });
});
