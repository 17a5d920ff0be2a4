import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/clients';
import type { Actor, OrgFixture } from '../../support/factories';
import { scenario } from '../../support/scenario';
import { contentHelpers } from '../../support/content';

/** The published view of a site and who gets it; the adaptive schema and its template conditions. */
let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;
let people: Record<'reader', Actor>;

beforeAll(async () => {
  ({ t, acme, other, people } = await scenario({ reader: ['read', 'Rita Read'] }));
});
afterAll(() => t?.close());

const { newSpace } = contentHelpers(() => t, () => acme);
const sites = `/v1/orgs/${'ORG'}/sites`;
const base = () => sites.replace('ORG', acme.organizationId);

async function site(body: Record<string, unknown> = {}) {
  const space = await newSpace({ title: 'Published space' });
  const res = await t.rest('POST', base(), { token: acme.admin.token, body: { title: 'Public docs', spaces: [space.id], ...body } });
  expect(res.status).toBe(201);
  return { id: res.body.id as string, path: `${base()}/${res.body.id}`, space };
}

describe('published view', () => {
  it('gives a published public site, its structure and valid default customizations, to anyone signed in', async () => {
    const s = await site();
    await t.rest('POST', `${s.path}/sections`, { token: acme.admin.token, body: { spaceId: (await newSpace({ title: 'Second' })).id, title: 'Guides' } });
    const before = await t.rest('GET', `${s.path}/published`, { token: other.admin.token });
    expect(before.status).toBe(404);
    // Members preview it before it is published.
    expect((await t.rest('GET', `${s.path}/published`, { token: people.reader.token })).status).toBe(200);

    await t.rest('POST', `${s.path}/publish`, { token: acme.admin.token });
    const res = await t.rest('GET', `${s.path}/published`, { token: other.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'published-content-site', site: { id: s.id, published: true }, structure: { type: 'sections' }, scripts: [] });
    // An outsider reads the spaces the site publishes, though they cannot open them by id.
    expect(res.body.structure.structure[0].siteSpaces.map((v: any) => v.space.title)).toEqual(['Published space', 'Second']);
    expect((await t.rest('GET', `/v1/spaces/${s.space.id}`, { token: other.admin.token })).status).toBe(404);
    expect(res.body.customizations.site.styling.theme).toBe('clean');
  });

  it('opens a share-link site only with an active key of its own', async () => {
    const s = await site({ title: 'Partners only', visibility: 'share-link' });
    await t.rest('POST', `${s.path}/publish`, { token: acme.admin.token });
    const link = (await t.rest('POST', `${s.path}/share-links`, { token: acme.admin.token, body: { name: 'Partner' } })).body;
    const key = new URL(link.urls.published).searchParams.get('shareKey');
    const other2 = await site({ title: 'Other shared', visibility: 'share-link' });
    const otherKey = new URL((await t.rest('POST', `${other2.path}/share-links`, { token: acme.admin.token, body: { name: 'x' } })).body.urls.published).searchParams.get('shareKey');
    const get = (shareKey?: string | null) => t.rest('GET', `${s.path}/published${shareKey ? `?shareKey=${shareKey}` : ''}`, { token: other.admin.token });

    expect((await get()).status).toBe(404);
    expect((await get(otherKey)).status).toBe(404);
    expect((await get(key)).status).toBe(200);
    await t.rest('PATCH', `${s.path}/share-links/${link.id}`, { token: acme.admin.token, body: { active: false } });
    expect((await get(key)).status).toBe(404);
    await t.rest('PATCH', `${s.path}/share-links/${link.id}`, { token: acme.admin.token, body: { active: true } });
    expect((await get(key)).status).toBe(200);
    await t.rest('DELETE', `${s.path}/share-links/${link.id}`, { token: acme.admin.token });
    const revoked = await get(key);
    expect(revoked.status).toBe(404);
    expect(revoked.body).toEqual((await t.rest('GET', `${base()}/doesNotExist00000000/published`, { token: other.admin.token })).body);
  });

  it('keeps visitor-authenticated and unpublished sites from outsiders', async () => {
    const s = await site({ title: 'Private docs', visibility: 'visitor-auth' });
    await t.rest('POST', `${s.path}/publish`, { token: acme.admin.token });
    expect((await t.rest('GET', `${s.path}/published`, { token: other.admin.token })).status).toBe(404);
    expect((await t.rest('GET', `${s.path}/published`, { token: people.reader.token })).status).toBe(200);
  });
});

describe('spaces follow the sites that publish them', () => {
  it('takes the visibility and published URL of its published sites, the most open first', async () => {
    const s = await site({ title: 'Unlisted docs', visibility: 'unlisted' });
    const read = async () => (await t.rest('GET', `/v1/spaces/${s.space.id}`, { token: acme.admin.token })).body;
    const before = await read();
    expect(before.urls.published).toBeUndefined();
    await t.rest('POST', `${s.path}/publish`, { token: acme.admin.token });
    expect(await read()).toMatchObject({ visibility: 'unlisted', urls: { published: expect.stringContaining(s.id) } });
    const pub = await t.rest('POST', base(), { token: acme.admin.token, body: { title: 'Public too', spaces: [s.space.id] } });
    await t.rest('POST', `${base()}/${pub.body.id}/publish`, { token: acme.admin.token });
    expect(await read()).toMatchObject({ visibility: 'public', urls: { public: expect.any(String) } });
    await t.rest('POST', `${base()}/${pub.body.id}/unpublish`, { token: acme.admin.token });
    expect((await read()).visibility).toBe('unlisted');
    // Deleting the last published site showing it hands the space back its own visibility.
    await t.rest('DELETE', s.path, { token: acme.admin.token });
    expect(await read()).toMatchObject({ visibility: before.visibility });
    expect((await read()).urls.published).toBeUndefined();
  });

  it('opens a space of a published share-link site with an active key, and no longer once revoked', async () => {
    const s = await site({ title: 'Shared space', visibility: 'share-link' });
    await t.rest('POST', `${s.path}/publish`, { token: acme.admin.token });
    const link = (await t.rest('POST', `${s.path}/share-links`, { token: acme.admin.token, body: { name: 'Guest' } })).body;
    const key = new URL(link.urls.published).searchParams.get('shareKey');
    const get = (shareKey?: string | null) => t.rest('GET', `/v1/spaces/${s.space.id}${shareKey ? `?shareKey=${shareKey}` : ''}`, { token: other.admin.token });
    expect((await get()).status).toBe(404);
    expect((await get('wrong-key')).status).toBe(404);
    const opened = await get(key);
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({ id: s.space.id, visibility: 'share-link', permissions: { view: false, edit: false } });
    await t.rest('DELETE', `${s.path}/share-links/${link.id}`, { token: acme.admin.token });
    expect((await get(key)).status).toBe(404);
  });
});

describe('adaptive schema', () => {
  const SCHEMA = {
    type: 'object',
    properties: {
      plan: { type: 'string', description: 'Plan', enum: ['free', 'pro'] },
      beta: { type: 'boolean', description: 'In the beta' },
      seats: { type: 'number', description: 'Seats' },
      unsigned: { type: 'object', description: 'Unsigned claims of the site visitor.', properties: { language: { type: 'string', description: 'Language' } }, additionalProperties: false },
    },
    additionalProperties: false,
  };

  it('stores a schema a validator compiles, and derives conditions that the condition parser accepts', async () => {
    const s = await site({ title: 'Adaptive' });
    const empty = await t.rest('GET', `${s.path}/adaptive-schema`, { token: people.reader.token });
    expect(empty.body).toMatchObject({ object: 'site-adaptive-schema', jsonSchema: { type: 'object', properties: {}, additionalProperties: false } });
    const put = await t.rest('PUT', `${s.path}/adaptive-schema`, { token: acme.admin.token, body: { jsonSchema: SCHEMA } });
    expect(put.status).toBe(200);
    expect(put.body.jsonSchema).toEqual(SCHEMA);
    const conditions = await t.rest('GET', `${s.path}/adaptive-schema/template-conditions`, { token: people.reader.token });
    expect(conditions.body.items.map((c: any) => c.condition)).toEqual([
      'visitor.claims.plan == "free"',
      'visitor.claims.beta == true',
      'visitor.claims.seats > 0',
      'visitor.claims.unsigned.language == "value"',
    ]);
    // Each one is accepted where conditions are written.
    const [siteSpace] = (await t.rest('GET', `${s.path}/site-spaces`, { token: acme.admin.token })).body.items;
    for (const { condition } of conditions.body.items) {
      expect((await t.rest('PATCH', `${s.path}/site-spaces/${siteSpace.id}`, { token: acme.admin.token, body: { condition } })).status).toBe(200);
    }
  });

  it('refuses what is not a schema, or not an object of claims, and keeps the one it had', async () => {
    const s = await site({ title: 'Strict' });
    await t.rest('PUT', `${s.path}/adaptive-schema`, { token: acme.admin.token, body: { jsonSchema: SCHEMA } });
    const bad: [unknown, RegExp][] = [
      [{ type: 'objekt' }, /not a valid JSON Schema/],
      [{ type: 'object', properties: { plan: { type: 'string', minLength: -1 } }, additionalProperties: false }, /not a valid JSON Schema/],
      [{ type: 'array', items: {} }, /jsonSchema/],
      [{ type: 'object', properties: { plan: { type: 'string' } } }, /additionalProperties/],
      ['not even an object', /jsonSchema/],
    ];
    for (const [jsonSchema, message] of bad) {
      const res = await t.rest('PUT', `${s.path}/adaptive-schema`, { token: acme.admin.token, body: { jsonSchema } });
      expect(res.status, JSON.stringify(jsonSchema)).toBe(400);
      expect(res.body.error.message).toMatch(message);
    }
    expect((await t.rest('PUT', `${s.path}/adaptive-schema`, { token: acme.admin.token, body: {} })).status).toBe(400);
    expect((await t.rest('PUT', `${s.path}/adaptive-schema`, { token: people.reader.token, body: { jsonSchema: SCHEMA } })).status).toBe(403);
    expect((await t.rest('GET', `${s.path}/adaptive-schema`, { token: acme.admin.token })).body.jsonSchema).toEqual(SCHEMA);
  });
});
