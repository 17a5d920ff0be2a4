import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/clients';
import type { OrgFixture } from '../../support/factories';
import { scenario } from '../../support/scenario';
import { contentHelpers } from '../../support/content';

/** A site's structure: root spaces, sections, groups, defaults and the sort that moves any of them. */
let t: TestApp;
let acme: OrgFixture;

beforeAll(async () => {
  ({ t, acme } = await scenario({}));
});
afterAll(() => t?.close());

const { newSpace } = contentHelpers(() => t, () => acme);
const call = async (method: string, path: string, body?: unknown, status = method === 'POST' ? 201 : method === 'DELETE' ? 204 : 200) => {
  const res = await t.rest(method, path, { token: acme.admin.token, body });
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(status);
  return res.body;
};

/** A site with root spaces titled as given, and helpers over its paths. */
async function site(...spaceTitles: string[]) {
  const ids = [];
  for (const title of spaceTitles) ids.push((await newSpace({ title })).id);
  const created = await call('POST', `/v1/orgs/${acme.organizationId}/sites`, { title: 'Structured', spaces: ids });
  const base = `/v1/orgs/${acme.organizationId}/sites/${created.id}`;
  /** The structure as `Section*[variant*, variant], Group{Section[...]}`, `*` marking defaults. */
  const outline = async () => {
    const s = await call('GET', `${base}/structure`);
    const spaces = (list: any[]) => list.map((v: any) => `${v.title}${v.default ? '*' : ''}`).join(', ');
    const section = (x: any) => `${x.title}${x.default ? '*' : ''}[${spaces(x.siteSpaces)}]`;
    if (s.type === 'siteSpaces') return spaces(s.structure);
    return s.structure.map((x: any) => (x.object === 'site-section' ? section(x) : `${x.title}{${x.sections.map(section).join(', ')}}`)).join(', ');
  };
  return { id: created.id, base, outline };
}

describe('site structure', () => {
  it('starts with root spaces; the first section takes them in, and later sections stand alone', async () => {
    const s = await site('Guide', 'API');
    expect(await s.outline()).toBe('Guide*, API');
    const blog = await newSpace({ title: 'Blog' });
    const first = await call('POST', `${s.base}/sections`, { spaceId: blog.id, title: 'Docs' });
    expect(first).toMatchObject({ object: 'site-section', title: 'Docs', default: true, path: 'docs' });
    expect(await s.outline()).toBe('Docs*[Guide*, API, Blog]');
    const changelog = await newSpace({ title: 'Changelog' });
    await call('POST', `${s.base}/sections`, { spaceId: changelog.id });
    expect(await s.outline()).toBe('Docs*[Guide*, API, Blog], Changelog[Changelog*]');
    // A space added without a section goes to the default section.
    const extra = await newSpace({ title: 'Extra' });
    const added = await call('POST', `${s.base}/site-spaces`, { spaceId: extra.id });
    expect(added.section).toBe(first.id);
    expect((await call('GET', `${s.base}`)).siteSpaces).toBe(5);
  });

  it('groups sections, sorts before and after across groups, and agrees with the deprecated moves', async () => {
    const s = await site('A');
    const a = (await call('POST', `${s.base}/sections`, { spaceId: (await newSpace({ title: 'A2' })).id, title: 'One' })).id;
    const two = (await call('POST', `${s.base}/sections`, { spaceId: (await newSpace({ title: 'B' })).id, title: 'Two' })).id;
    const three = (await call('POST', `${s.base}/sections`, { spaceId: (await newSpace({ title: 'C' })).id, title: 'Three' })).id;
    const group = await call('POST', `${s.base}/section-groups`, { title: 'More', sections: [three] });
    expect(group.sections.map((x: any) => x.title)).toEqual(['Three']);
    expect(await s.outline()).toBe('One*[A*, A2], Two[B*], More{Three[C*]}');

    const sort = (item: unknown, position?: unknown) => call('PATCH', `${s.base}/structure/sort`, { item, ...(position ? { position } : {}) });
    // Two goes into the group, before Three.
    const moved = await sort({ type: 'site-section', id: two }, { before: { type: 'site-section', id: three } });
    expect(moved).toMatchObject({ object: 'site-section', sectionGroup: group.id });
    expect(await s.outline()).toBe('One*[A*, A2], More{Two[B*], Three[C*]}');
    // The group goes before One.
    await sort({ type: 'site-section-group', id: group.id }, { before: { type: 'site-section', id: a } });
    expect(await s.outline()).toBe('More{Two[B*], Three[C*]}, One*[A*, A2]');
    // Three leaves the group to the very end.
    await sort({ type: 'site-section', id: three });
    expect(await s.outline()).toBe('More{Two[B*]}, One*[A*, A2], Three[C*]');
    // A group never goes inside a group, and an unknown target is a 400.
    expect((await t.rest('PATCH', `${s.base}/structure/sort`, { token: acme.admin.token, body: { item: { type: 'site-section-group', id: group.id }, position: { after: { type: 'site-section', id: two } } } })).status).toBe(400);
    expect((await t.rest('PATCH', `${s.base}/structure/sort`, { token: acme.admin.token, body: { item: { type: 'site-section', id: a }, position: { after: { type: 'site-section', id: 'doesNotExist00000000' } } } })).status).toBe(400);

    // The deprecated moves do the same as sort.
    await call('POST', `${s.base}/sections/${three}/move`, { position: { before: { type: 'site-section', siteSection: a } } }, 200);
    expect(await s.outline()).toBe('More{Two[B*]}, Three[C*], One*[A*, A2]');
    const variants = (await call('GET', `${s.base}/sections`)).items.find((x: any) => x.id === a).siteSpaces;
    await call('POST', `${s.base}/site-spaces/${variants[1].id}/move`, { position: { before: { type: 'site-space', siteSpace: variants[0].id } } }, 200);
    expect(await s.outline()).toBe('More{Two[B*]}, Three[C*], One*[A2, A*]');
    await call('POST', `${s.base}/section-groups/${group.id}/move`, {}, 200);
    expect(await s.outline()).toBe('Three[C*], One*[A2, A*], More{Two[B*]}');

    // Sections join and leave groups by their own operations too.
    await call('POST', `${s.base}/section-groups/${group.id}/sections`, { sectionId: three });
    expect(await s.outline()).toBe('One*[A2, A*], More{Two[B*], Three[C*]}');
    await call('DELETE', `${s.base}/section-groups/${group.id}/sections/${two}`);
    expect(await s.outline()).toBe('One*[A2, A*], More{Three[C*]}, Two[B*]');
    await call('PATCH', `${s.base}/section-groups/${group.id}`, { title: 'Extras', icon: 'star' });
    await call('DELETE', `${s.base}/section-groups/${group.id}`);
    expect(await s.outline()).toBe('One*[A2, A*], Three[C*], Two[B*]');
  });

  it('keeps one default section and one default site space per section, picking the next predictably', async () => {
    const s = await site('Root');
    const first = (await call('POST', `${s.base}/sections`, { spaceId: (await newSpace({ title: 'R2' })).id, title: 'First' })).id;
    const second = (await call('POST', `${s.base}/sections`, { spaceId: (await newSpace({ title: 'S' })).id, title: 'Second' })).id;
    await call('PATCH', s.base, { defaultSiteSection: second });
    expect(await s.outline()).toBe('First[Root*, R2], Second*[S*]');
    await call('DELETE', `${s.base}/sections/${second}`);
    expect(await s.outline()).toBe('First*[Root*, R2]');
    const [root, r2] = (await call('GET', `${s.base}/sections`)).items[0].siteSpaces;
    await call('PATCH', `${s.base}/sections/${first}`, { defaultSiteSpace: r2.id, path: 'start', description: 'Where to begin', condition: 'visitor.claims.beta == true' });
    expect(await s.outline()).toBe('First*[Root, R2*]');
    await call('DELETE', `${s.base}/site-spaces/${r2.id}`);
    expect(await s.outline()).toBe('First*[Root*]');
    expect(root.default).toBe(true);
    // Section paths are unique; a section condition is checked like a site space's.
    const third = (await call('POST', `${s.base}/sections`, { spaceId: (await newSpace({ title: 'T' })).id, title: 'Third' })).id;
    expect((await t.rest('PATCH', `${s.base}/sections/${third}`, { token: acme.admin.token, body: { path: 'start' } })).status).toBe(409);
    expect((await t.rest('PATCH', `${s.base}/sections/${third}`, { token: acme.admin.token, body: { condition: 'visitor.claims.plan ==' } })).status).toBe(400);
    expect((await t.rest('PATCH', `${s.base}/sections/${third}`, { token: acme.admin.token, body: { title: 'x' } })).status).toBe(400);
    expect((await t.rest('PATCH', `${s.base}/sections/${third}`, { token: acme.admin.token, body: { description: 'd'.repeat(257) } })).status).toBe(400);
    expect((await t.rest('POST', `${s.base}/section-groups`, { token: acme.admin.token, body: { title: 'g'.repeat(101) } })).status).toBe(400);
    expect((await t.rest('POST', `${s.base}/section-groups`, { token: acme.admin.token, body: { title: 'g'.repeat(100) } })).status).toBe(201);
  });
});
