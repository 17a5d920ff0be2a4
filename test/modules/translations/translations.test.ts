import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translations } from '../../../src/db/schema/translations';
import { scenario } from '../../support/scenario';
import { contentBench, type ContentBench } from '../../support/change-requests';
import { gid, MISSING } from '../../support/doors';
import { mutations } from '../../support/graphql';
import { warmSession, type TestApp } from '../../support/clients';
import type { Actor, OrgFixture } from '../../support/factories';

/** Creating and changing translations: input checks on both doors, GraphQL shapes, and the queue's absence. */
let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;
let people: Record<'creator' | 'reader', Actor>;
let b: ContentBench;
let foreignSpace: string;

beforeAll(async () => {
  ({ t, acme, other, people } = await scenario({ creator: ['create', 'Cora Creator'], reader: ['read', 'Rita Reader'] }));
  b = await contentBench(() => t, () => acme, [{ title: 'Intro', markdown: 'Hello.' }]);
  const res = await t.rest('POST', `/v1/orgs/${other.organizationId}/spaces`, { token: other.admin.token, body: { title: 'Elsewhere' } });
  foreignSpace = res.body.id;
});
afterAll(async () => {
  await t?.close();
});

const rows = async () => (await t.db.select({ n: count() }).from(translations))[0]!.n;
const post = (body: unknown, token = people.creator.token) => t.rest('POST', `/v1/orgs/${acme.organizationId}/translations`, { token, body });
const { succeed, userError, refused } = mutations(() => t, { token: () => people.creator.token, select: 'translation { id restId status language sourceLanguage instructions sourceSpace { title } resultSpace { id } stats { runs } viewerCanEdit }' });

describe('creating a translation', () => {
  const source = () => ({ space: b.spaceId, language: 'en' });
  it.each([
    ['an unknown language', () => ({ language: 'xx', source: source() }), /^language must be one of en, fr/, 'language'],
    ['no language', () => ({ source: source() }), /^language is required/, 'language'],
    ['an unknown source language', () => ({ language: 'fr', source: { space: b.spaceId, language: 'klingon' } }), /^source\.language: the source language must be one of en, fr/, 'source.language'],
    ['no source', () => ({ language: 'fr' }), /source is required|source must be/, 'source'],
    ['the same language as the source', () => ({ language: 'en', source: source() }), /language must differ from source\.language/, 'language'],
    ['a space of another organization', () => ({ language: 'fr', source: { space: foreignSpace, language: 'en' } }), /^source\.space: there is no space \w+ in this organization/, 'source.space'],
    ['a missing space', () => ({ language: 'fr', source: { space: MISSING, language: 'en' } }), /^source\.space: there is no space/, 'source.space'],
    ['instructions that are not a document', () => ({ language: 'fr', source: source(), instructions: { object: 'document', data: {}, nodes: [{ object: 'nope' }] } }), /^instructions must be a document/, 'instructions'],
    ['an unknown field', () => ({ language: 'fr', source: source(), glossary: {} }), /glossary/, undefined],
  ])('refuses %s with a 400 and writes nothing', async (_, body, message, _field) => {
    const before = await rows();
    const res = await post(body());
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 400, message: expect.stringMatching(message) } });
    expect(await rows()).toBe(before);
  });

  it('refuses a body that is not an object', async () => {
    const res = await t.rest('POST', `/v1/orgs/${acme.organizationId}/translations`, { token: people.creator.token, rawBody: '[1]' });
    expect(res.status).toBe(400);
  });

  it('through GraphQL, names the input field of a refused value, and writes nothing', async () => {
    const before = await rows();
    await userError('translationCreate', { organizationId: gid('Organization', acme.organizationId), sourceSpaceId: gid('Space', foreignSpace), sourceLanguage: 'EN', language: 'FR' }, 'VALIDATION_FAILED', ['sourceSpaceId']);
    await userError('translationCreate', { organizationId: gid('Organization', acme.organizationId), sourceSpaceId: gid('Space', b.spaceId), sourceLanguage: 'EN', language: 'EN' }, 'VALIDATION_FAILED', ['language']);
    await userError('translationCreate', { organizationId: gid('Organization', acme.organizationId), sourceSpaceId: gid('Space', b.spaceId), sourceLanguage: 'EN', language: 'FR', instructions: { object: 'page' } }, 'VALIDATION_FAILED', ['instructions']);
    await refused('translationCreate', { organizationId: gid('Organization', acme.organizationId), sourceSpaceId: gid('Space', b.spaceId), sourceLanguage: 'EN', language: 'FR' }, people.reader.token, 'FORBIDDEN');
    expect(await rows()).toBe(before);
  });
});

describe('translations in GraphQL', () => {
  it('creates, updates, lists on the organization, runs (503 without a job queue) and deletes', async () => {
    const created = await succeed('translationCreate', { organizationId: gid('Organization', acme.organizationId), sourceSpaceId: gid('Space', b.spaceId), sourceLanguage: 'EN', language: 'PT_BR' });
    const id = created.translation.id;
    expect(created.translation).toMatchObject({ status: 'PENDING', language: 'PT_BR', sourceLanguage: 'EN', sourceSpace: { title: 'Merge bench' }, resultSpace: null, stats: { runs: 0 }, viewerCanEdit: true });
    const rest = await t.rest('GET', `/v1/orgs/${acme.organizationId}/translations/${created.translation.restId}`, { token: people.reader.token });
    expect(rest.body).toMatchObject({ language: 'pt-br', permissions: { view: true, edit: false } });

    const doc = { object: 'document', data: {}, nodes: [] };
    const updated = await succeed('translationUpdate', { translationId: id, instructions: doc });
    expect(updated.translation.instructions).toEqual(doc);
    await refused('translationUpdate', { translationId: id, instructions: doc }, people.reader.token, 'FORBIDDEN');

    const list = await t.graphql(`query ($id: ID!) { node(id: $id) { ... on Organization { translations(first: 10) { totalCount edges { node { id viewerCanEdit } } } } } }`, { id: gid('Organization', acme.organizationId) }, people.reader.token);
    expect(list.body.data.node.translations).toEqual({ totalCount: 1, edges: [{ node: { id, viewerCanEdit: false } }] });

    // This app runs no job queue: the run is refused, and the translation left as it was.
    t.config.translate = { url: 'http://127.0.0.1:9' };
    try {
      const run = await t.rest('POST', `/v1/orgs/${acme.organizationId}/translations/${created.translation.restId}/run`, { token: people.creator.token });
      expect(run.status).toBe(503);
    } finally {
      delete t.config.translate;
    }
    const [row] = await t.db.select().from(translations).where(eq(translations.id, created.translation.restId));
    expect(row).toMatchObject({ status: 'pending', queuedAt: null, runBy: null });

    const deleted = await succeed('translationDelete', { translationId: id }, 'deletedTranslationId');
    expect(deleted.deletedTranslationId).toBe(id);
    expect((await t.graphql(`query ($id: ID!) { node(id: $id) { id } }`, { id }, people.creator.token)).body.data.node).toBeNull();
    // Deleting it again succeeds.
    await succeed('translationDelete', { translationId: id }, 'deletedTranslationId');
  });
});

describe('listing translations', () => {
  it('costs one statement through REST and GraphQL, for one translation as for many (no query per item)', async () => {
    const fresh = await scenario({ creator: ['create', 'Cora Creator'] });
    try {
      const { t: app, acme: org, people: who } = fresh;
      const space = (await app.rest('POST', `/v1/orgs/${org.organizationId}/spaces`, { token: org.admin.token, body: { title: 'Counted' } })).body.id;
      const add = async () => expect((await app.rest('POST', `/v1/orgs/${org.organizationId}/translations`, { token: org.admin.token, body: { language: 'fr', source: { space, language: 'en' } } })).status).toBe(201);
      const statements = async () => {
        await warmSession(app, who.creator.token);
        let before = app.database.counter.count;
        const res = await app.rest('GET', `/v1/orgs/${org.organizationId}/translations`, { token: who.creator.token });
        const rest = app.database.counter.count - before;
        before = app.database.counter.count;
        const gql = await app.graphql(
          'query ($id: ID!) { node(id: $id) { ... on Organization { translations(first: 50) { edges { node { language status stats { runs } viewerCanEdit } } } } } }',
          { id: gid('Organization', org.organizationId) },
          who.creator.token,
        );
        expect(gql.body.data.node.translations.edges).toHaveLength(res.body.items.length);
        return { n: [rest, app.database.counter.count - before], items: res.body.items.length };
      };
      await add();
      const one = await statements();
      for (let i = 0; i < 4; i++) await add();
      const five = await statements();
      expect([one.items, five.items]).toEqual([1, 5]);
      // The page and its count in one statement, through either door; organization and role come from the session.
      expect([one.n, five.n]).toEqual([[1, 1], [1, 1]]);
    } finally {
      await fresh.t.close();
    }
  });
});
