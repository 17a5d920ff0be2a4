import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../support/clients';
import { contentBench, type ContentBench } from '../../support/change-requests';
import { buildMember, buildOrganization, type Actor, type OrgFixture } from '../../support/factories';
import { startTranslateServer, type TranslateServer } from '../../support/translate-server';
import { waitForRun } from './support';

/** Runs of a translation through the real job queue, against a local LibreTranslate-speaking server. */
let t: TestApp;
let acme: OrgFixture;
let creator: Actor;
let engine: TranslateServer;
let b: ContentBench;

const INTRO = [
  '# Welcome',
  '',
  'Read the **quick start** and the [guide](https://example.com/guide).',
  '',
  '```js',
  'const greeting = "hello world";',
  '```',
  '',
  'Call `runTask()` to start.',
].join('\n');

beforeAll(async () => {
  engine = await startTranslateServer();
  t = await startTestApp({}, { jobs: true });
  t.config.translate = { url: engine.url, key: 'secret-key' };
  t.config.fetchAllowHosts = [engine.host];
  acme = await buildOrganization(t.db, 'Acme');
  creator = await buildMember(t.db, acme.organizationId, 'create', 'Cora Creator');
  b = await contentBench(() => t, () => acme, [{ title: 'Intro', markdown: INTRO }, { title: 'Guide', markdown: 'First step.\n\n- one item\n- two items' }]);
});
afterAll(async () => {
  await t?.close();
  await engine?.stop();
});

async function create(token = creator.token) {
  const res = await t.rest('POST', `/v1/orgs/${acme.organizationId}/translations`, { token, body: { language: 'fr', source: { space: b.spaceId, language: 'en' } } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function run(id: string, token = creator.token) {
  const res = await t.rest('POST', `/v1/orgs/${acme.organizationId}/translations/${id}/run`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(204);
}

async function resultPages(spaceId: string) {
  const { body } = await t.rest('GET', `/v1/spaces/${spaceId}/content/pages`, { token: acme.admin.token });
  const out: Record<string, string> = {};
  for (const page of body.pages) {
    const { body: one } = await t.rest('GET', `/v1/spaces/${spaceId}/content/page/${page.id}?format=markdown`, { token: acme.admin.token });
    out[one.title] = one.markdown ?? '';
  }
  return out;
}

describe('a translation run', () => {
  it('translates the text of every page into a new result space, keeping code, URLs and structure', async () => {
    const created = await create();
    expect(created).toMatchObject({ status: 'pending', language: 'fr', source: { space: b.spaceId, language: 'en' } });
    expect(created.result).toBeUndefined();
    engine.requests.length = 0;

    await run(created.id);
    const node = await waitForRun(t, creator.token, created.id);
    expect(node.failure).toBeNull();
    expect(node.status).toBe('COMPLETED');

    // What went out: the engine's API, and only prose.
    expect(engine.requests.every((r) => r.source === 'en' && r.target === 'fr' && r.format === 'text' && r.api_key === 'secret-key')).toBe(true);
    const sent = engine.texts();
    expect(sent).toEqual(expect.arrayContaining(['Intro', 'Welcome', 'quick start', 'guide', 'Guide', 'First step.', 'one item', 'two items']));
    expect(sent.join('\n')).not.toMatch(/greeting|runTask|example\.com/);

    const { body } = await t.rest('GET', `/v1/orgs/${acme.organizationId}/translations/${created.id}`, { token: creator.token });
    expect(body.status).toBe('completed');
    expect(body.result.revision).toBe(node.resultRevision);
    const words = sent.reduce((n, s) => n + s.split(/\s+/).filter(Boolean).length, 0);
    expect(body.stats).toMatchObject({ runs: 1, totalPages: 2, latestPages: 2, latestWords: words, totalWords: words });

    const pages = await resultPages(body.result.space);
    expect(Object.keys(pages)).toEqual(['INTRO (fr)', 'GUIDE (fr)']);
    expect(pages['INTRO (fr)']).toBe(
      [
        '# WELCOME (fr)',
        '',
        'READ THE (fr) **QUICK START (fr)** AND THE (fr) [GUIDE (fr)](https://example.com/guide).',
        '',
        '```js',
        'const greeting = "hello world";',
        '```',
        '',
        'CALL (fr) `runTask()` TO START. (fr)',
      ].join('\n'),
    );
    expect(pages['GUIDE (fr)']).toBe('FIRST STEP. (fr)\n\n- ONE ITEM (fr)\n- TWO ITEMS (fr)');
  });
});
