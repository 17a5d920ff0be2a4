import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translations } from '../../../src/db/schema/translations';
import { startTestApp, type TestApp } from '../../support/clients';
import { contentBench, type ContentBench } from '../../support/change-requests';
import { buildMember, buildOrganization, type Actor, type OrgFixture } from '../../support/factories';
import { startTranslateServer, type TranslateServer } from '../../support/translate-server';
import { gid } from '../../support/doors';
import { translationNode, waitForRun } from './support';

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

  it('translates again only the pages changed since the last run', async () => {
    const created = await create();
    await run(created.id);
    const first = await waitForRun(t, creator.token, created.id);
    expect(first.status).toBe('COMPLETED');

    await b.space.update('Guide', { markdown: 'First step.\n\n- one item\n- two items\n- three items' });
    engine.requests.length = 0;
    await run(created.id);
    const second = await waitForRun(t, creator.token, created.id);
    expect(second.status).toBe('COMPLETED');

    // Only the Guide page went out; Intro's translation was kept from the first run.
    expect(engine.texts().sort()).toEqual(['First step.', 'Guide', 'one item', 'three items', 'two items'].sort());
    expect(second.stats).toMatchObject({ runs: 2, latestPages: 1, latestWords: 9, totalPages: 2, totalWords: first.stats.totalWords + 9 });
    expect(second.resultSpace.id).toBe(first.resultSpace.id);
    expect(second.resultRevision).not.toBe(first.resultRevision);
    const { body } = await t.rest('GET', `/v1/orgs/${acme.organizationId}/translations/${created.id}`, { token: creator.token });
    const pages = await resultPages(body.result.space);
    expect(pages['GUIDE (fr)']).toBe('FIRST STEP. (fr)\n\n- ONE ITEM (fr)\n- TWO ITEMS (fr)\n- THREE ITEMS (fr)');
    expect(pages['INTRO (fr)']).toContain('**QUICK START (fr)**');

    // Nothing changed: a run sends nothing, and still completes.
    engine.requests.length = 0;
    await run(created.id);
    const third = await waitForRun(t, creator.token, created.id);
    expect(engine.requests).toEqual([]);
    expect(third.stats).toMatchObject({ runs: 3, latestPages: 0, latestWords: 0 });
  });

  it.each([
    ['error', /answered 500/],
    ['not-json', /not JSON/],
    ['short', /no translatedText list of \d+ texts/],
  ] as const)('a provider that answers %s leaves the translation failed, with the reason', async (mode, reason) => {
    const created = await create();
    engine.setMode(mode);
    try {
      await run(created.id);
      const node = await waitForRun(t, creator.token, created.id);
      expect(node).toMatchObject({ status: 'FAILED', failure: expect.stringMatching(reason), resultRevision: null });
      expect(node.failure).toMatch(/^The translation provider failed: /);
      expect(node.stats.runs).toBe(0);
      // REST's status enum has no failure: the translation waits for another run.
      const { body } = await t.rest('GET', `/v1/orgs/${acme.organizationId}/translations/${created.id}`, { token: creator.token });
      expect(body).toMatchObject({ status: 'pending', stats: { runs: 0 } });
      expect(body.result).toBeUndefined();
    } finally {
      engine.setMode('translate');
    }
    // Once the provider is back, the next run completes.
    await run(created.id);
    expect(await waitForRun(t, creator.token, created.id)).toMatchObject({ status: 'COMPLETED', failure: null });
  });

  it('an unreachable provider leaves the translation failed, with the reason', async () => {
    const created = await create();
    const stopped = await startTranslateServer();
    await stopped.stop();
    const saved = { translate: t.config.translate, hosts: t.config.fetchAllowHosts };
    t.config.translate = { url: stopped.url };
    t.config.fetchAllowHosts = [stopped.host];
    try {
      await run(created.id);
      const node = await waitForRun(t, creator.token, created.id);
      expect(node).toMatchObject({ status: 'FAILED', failure: expect.stringMatching(/^The translation provider failed: .*could not be fetched/) });
    } finally {
      t.config.translate = saved.translate;
      t.config.fetchAllowHosts = saved.hosts;
    }
  });

  it('without a provider configured, run answers 412 saying how to configure one, and queues nothing', async () => {
    const created = await create();
    const saved = t.config.translate;
    delete t.config.translate;
    try {
      const res = await t.rest('POST', `/v1/orgs/${acme.organizationId}/translations/${created.id}/run`, { token: creator.token });
      expect(res.status).toBe(412);
      expect(res.body.error.message).toMatch(/QUIRE_TRANSLATE_URL/);
      const gql = await t.graphql(
        'mutation ($input: TranslationRunInput!) { translationRun(input: $input) { translation { id } userErrors { code message } } }',
        { input: { translationId: gid('Translation', created.id) } },
        creator.token,
      );
      expect(gql.body.data.translationRun).toEqual({ translation: null, userErrors: [{ code: 'PRECONDITION_FAILED', message: expect.stringContaining('QUIRE_TRANSLATE_URL') }] });
    } finally {
      t.config.translate = saved;
    }
    const node = await translationNode(t, creator.token, created.id);
    expect(node).toMatchObject({ status: 'PENDING', resultSpace: null, stats: { runs: 0 } });
  });

  it('runs through GraphQL too, and the source space lists its translations', async () => {
    const created = await create();
    const res = await t.graphql(
      'mutation ($input: TranslationRunInput!) { translationRun(input: $input) { translation { id status } userErrors { code message } } }',
      { input: { translationId: gid('Translation', created.id) } },
      creator.token,
    );
    expect(res.body.data.translationRun).toEqual({ translation: { id: gid('Translation', created.id), status: 'PENDING' }, userErrors: [] });
    const done = await waitForRun(t, creator.token, created.id);
    expect(done.status).toBe('COMPLETED');
    const space = await t.graphql('query ($id: ID!) { node(id: $id) { ... on Space { translations(first: 100) { totalCount edges { node { restId } } } } } }', { id: gid('Space', b.spaceId) }, creator.token);
    expect(space.body.data.node.translations.edges.map((e: { node: { restId: string } }) => e.node.restId)).toContain(created.id);
  });

  it('refuses a second run while one is queued or running (409), and takes over one stale for 20 minutes', async () => {
    const created = await create();
    await t.db.update(translations).set({ queuedAt: new Date() }).where(eq(translations.id, created.id));
    const res = await t.rest('POST', `/v1/orgs/${acme.organizationId}/translations/${created.id}/run`, { token: creator.token });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toMatch(/already queued or running/);

    // A job lost before it started (its queue entry gone) frees the translation after 20 minutes too.
    await t.db.update(translations).set({ queuedAt: new Date(Date.now() - 21 * 60 * 1000) }).where(eq(translations.id, created.id));
    await run(created.id);
    expect((await waitForRun(t, creator.token, created.id)).status).toBe('COMPLETED');

    await t.db.update(translations).set({ queuedAt: null, status: 'running', runStartedAt: new Date() }).where(eq(translations.id, created.id));
    expect((await t.rest('POST', `/v1/orgs/${acme.organizationId}/translations/${created.id}/run`, { token: creator.token })).status).toBe(409);

    // A worker that died mid-run leaves it "running": after 20 minutes another run may start.
    await t.db.update(translations).set({ runStartedAt: new Date(Date.now() - 21 * 60 * 1000) }).where(eq(translations.id, created.id));
    await run(created.id);
    expect((await waitForRun(t, creator.token, created.id)).status).toBe('COMPLETED');
  });

  it('acts as the member who ran it: one who lost the right to create the space fails the run, saying so', async () => {
    const created = await create();
    const demoted = await buildMember(t.db, acme.organizationId, 'read', 'Dee Demoted');
    // As if Dee had run it while a creator, and been demoted before the worker took the job.
    await t.db.update(translations).set({ queuedAt: new Date(), runBy: demoted.userId }).where(eq(translations.id, created.id));
    const job = await t.jobs!.send('translation-run', { translationId: created.id });
    expect(await t.jobs!.waitFor('translation-run', job)).toMatchObject({ state: 'completed', output: { failed: expect.stringMatching(/^The run was refused: /) } });
    const node = await translationNode(t, creator.token, created.id);
    expect(node).toMatchObject({ status: 'FAILED', failure: expect.stringContaining('create content'), resultSpace: null });
  });

  it('a job for a translation with no run queued (deleted, or sent twice) does nothing', async () => {
    const created = await create();
    const job = await t.jobs!.send('translation-run', { translationId: created.id });
    expect((await t.jobs!.waitFor('translation-run', job)).output).toEqual({ skipped: 'no run queued' });
    expect(await translationNode(t, creator.token, created.id)).toMatchObject({ status: 'PENDING', stats: { runs: 0 } });
  });

  it('keeps the source paths and copies its files, so links between pages and to files still resolve', async () => {
    const linked = await contentBench(() => t, () => acme, [{ title: 'Home', markdown: 'See [the guide](guide) and [the notes](notes.txt).' }, { title: 'Guide', markdown: 'Steps.' }], ['notes.txt']);
    const res = await t.rest('POST', `/v1/orgs/${acme.organizationId}/translations`, { token: creator.token, body: { language: 'es', source: { space: linked.spaceId, language: 'en' } } });
    await run(res.body.id);
    expect((await waitForRun(t, creator.token, res.body.id)).status).toBe('COMPLETED');
    const { body } = await t.rest('GET', `/v1/orgs/${acme.organizationId}/translations/${res.body.id}`, { token: creator.token });
    const result = body.result.space;

    const { body: pages } = await t.rest('GET', `/v1/spaces/${result}/content/pages`, { token: creator.token });
    expect(pages.pages.map((p: { title: string; path: string }) => [p.title, p.path])).toEqual([['HOME (es)', 'home'], ['GUIDE (es)', 'guide']]);
    const { body: files } = await t.rest('GET', `/v1/spaces/${result}/content/files`, { token: creator.token });
    expect(files.items.map((f: { name: string }) => f.name)).toEqual(['notes.txt']);
    const { body: links } = await t.rest('GET', `/v1/spaces/${result}/links`, { token: creator.token });
    expect(links.stats).toEqual({ total: 2, broken: { total: 0 } });
  });
});
