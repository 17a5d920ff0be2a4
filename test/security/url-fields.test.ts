import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { specDocument } from '../../src/lib/spec-schemas';
import type { RestResponse, TestApp } from '../support/clients';
import { gid } from '../support/doors';
import type { OrgFixture } from '../support/factories';
import { makeIdp } from '../support/saml-idp';
import { scenario } from '../support/scenario';

/*
 * Every URL an API user can store, through every door that stores it: `javascript:`, `data:` and
 * their disguises are refused with a 400 (REST) or a user error (GraphQL) naming the field, and
 * nothing changes; the forms the platform allows still go through.
 */
let t: TestApp;
let acme: OrgFixture;
const ids: Record<string, string> = {};

const UNSAFE = ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'java\tscript:alert(1)', '&#106;avascript:alert(1)', 'data:text/html,<script>alert(1)</script>', '//evil.example/x'];
/** Disguises tried on the most permissive field of each door. */
const DISGUISES = [
  ' \u0001javascript:alert(1)',
  'java\nscript:alert(1)',
  'javascript&colon;alert(1)',
  '&#x6A;avascript:alert(1)',
  'javascript%3Aalert(1)',
  '%6Aavascript:alert(1)',
  'java\u200bscript:alert(1)',
  'ｊａｖａｓｃｒｉｐｔ：alert(1)',
  'vbscript:msgbox(1)',
  'file:///etc/passwd',
  'blob:https://evil.example/1',
  'DATA:text/html;base64,PHNjcmlwdD4=',
  '/\\evil.example',
  '\\\\evil.example',
];

type Kind = 'link' | 'web' | 'web-or-mailto';
const ALLOWED: Record<Kind, string[]> = {
  link: ['https://example.com/a?b=c#d', 'http://example.com/x', 'mailto:docs@example.com', '/docs/x'],
  web: ['https://cdn.example.com/a.png', 'http://cdn.example.com/b.png'],
  'web-or-mailto': ['https://example.com/privacy', 'mailto:privacy@example.com'],
};

interface UrlField {
  name: string;
  kind: Kind;
  /** The field as the REST message and the GraphQL user error's path name it. */
  field: RegExp;
  rest?: (url: string) => Promise<RestResponse>;
  graphql?: (url: string) => Promise<{ userErrors: { code: string; field: string[] | null; message: string }[] }>;
  /** What is stored, to compare before and after. */
  read: () => Promise<unknown>;
  /** Storing a good URL makes the server fetch it: only refusals are checked. */
  fetches?: boolean;
}

const admin = () => acme.admin.token;
const rest = (method: string, path: string, body: unknown) => t.rest(method, path, { token: admin(), body });
const get = async (path: string) => {
  const res = await t.rest('GET', path, { token: admin() });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};
async function mutate(name: string, input: Record<string, unknown>) {
  const type = `${name[0].toUpperCase()}${name.slice(1)}Input`;
  const res = await t.graphql(`mutation ($input: ${type}!) { ${name}(input: $input) { userErrors { code field message } } }`, { input }, admin());
  expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
  return res.body.data[name];
}
async function node(id: string, selection: string) {
  const res = await t.graphql(`query ($id: ID!) { node(id: $id) { ${selection} } }`, { id }, admin());
  return res.body.data.node;
}

const org = () => `/v1/orgs/${acme.organizationId}`;
const site = () => `${org()}/sites/${ids.site}`;
/** A markdown link destination; one with whitespace in it must be written in angle brackets to be a link at all. */
const dest = (url: string) => (/\s/.test(url) ? `<${url}>` : url);
const linkIn = (url: string) => `See [the docs](${dest(url)}).`;
const documentWith = (url: string) => ({
  object: 'document',
  data: {},
  nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'inline', type: 'link', data: { ref: { kind: 'url', url } }, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'docs', marks: [] }] }] }] }],
});
const manifest = (extra: Record<string, unknown>) => ({
  organization: acme.organizationId,
  title: 'Linker',
  description: '',
  scopes: [],
  script: 'export default { fetch() { return new Response("ok"); } };',
  visibility: 'private',
  ...extra,
});

/**
 * The URLs of SiteCustomizationSettings, read from the official spec: every `format: uri` string
 * and every ContentRefURL's `url`, as dotted paths (`*` for a list index).
 */
function specUrlPaths(name: string): string[] {
  const schemas = specDocument().components.schemas as Record<string, any>;
  const found = new Set<string>();
  const walk = (schema: any, path: string[], seen: Set<string>) => {
    if (!schema || typeof schema !== 'object') return;
    if (typeof schema.$ref === 'string') {
      const ref = schema.$ref.split('/').pop();
      if (ref === 'ContentRefURL') found.add([...path, 'url'].join('.'));
      else if (!seen.has(ref)) walk(schemas[ref], path, new Set([...seen, ref]));
      return;
    }
    if (schema.type === 'string' && schema.format === 'uri') found.add(path.join('.'));
    for (const key of ['oneOf', 'anyOf', 'allOf']) for (const branch of schema[key] ?? []) walk(branch, path, seen);
    for (const [key, value] of Object.entries(schema.properties ?? {})) walk(value, [...path, key], seen);
    if (schema.items) walk(schema.items, [...path, '*'], seen);
  };
  walk(schemas[name], [], new Set([name]));
  return [...found].sort();
}

type Customization = Record<string, any>;
const themed = (url: string) => ({ light: url, dark: url });
const contentLink = (url: string) => ({ title: 'Docs', to: { kind: 'url', url } });
const font = (url: string) => ({ id: 'brand', custom: true, fontFamily: 'Brand', fontFaces: [{ weight: 400, sources: [{ url, format: 'woff2' }] }] });
/** A valid customization with the URL at each of those places (the one list index is 0). */
const CUSTOMIZATION_PLACES: Record<string, (base: Customization, url: string) => Customization> = {
  'styling.font.fontFaces.*.sources.*.url': (b, url) => ({ ...b, styling: { ...b.styling, font: font(url) } }),
  'styling.monospaceFont.fontFaces.*.sources.*.url': (b, url) => ({ ...b, styling: { ...b.styling, monospaceFont: font(url) } }),
  'favicon.icon.light': (b, url) => ({ ...b, favicon: { icon: { light: url, dark: 'https://cdn.example.com/i.png' } } }),
  'favicon.icon.dark': (b, url) => ({ ...b, favicon: { icon: { light: 'https://cdn.example.com/i.png', dark: url } } }),
  'header.logo.light': (b, url) => ({ ...b, header: { ...b.header, logo: { ...themed('https://cdn.example.com/l.png'), light: url } } }),
  'header.logo.dark': (b, url) => ({ ...b, header: { ...b.header, logo: { ...themed('https://cdn.example.com/l.png'), dark: url } } }),
  'header.links.*.to.url': (b, url) => ({ ...b, header: { ...b.header, links: [{ ...contentLink(url), links: [] }] } }),
  'header.links.*.links.*.to.url': (b, url) => ({ ...b, header: { ...b.header, links: [{ title: 'More', to: null, links: [contentLink(url)] }] } }),
  'footer.logo.light': (b, url) => ({ ...b, footer: { ...b.footer, logo: { ...themed('https://cdn.example.com/l.png'), light: url } } }),
  'footer.logo.dark': (b, url) => ({ ...b, footer: { ...b.footer, logo: { ...themed('https://cdn.example.com/l.png'), dark: url } } }),
  'footer.groups.*.links.*.to.url': (b, url) => ({ ...b, footer: { ...b.footer, groups: [{ title: 'Company', links: [contentLink(url)] }] } }),
  'announcement.link.to.url': (b, url) => ({ ...b, announcement: { enabled: true, message: 'News', style: 'info', link: contentLink(url) } }),
  'privacyPolicy.url': (b, url) => ({ ...b, privacyPolicy: { url } }),
  'socialPreview.url': (b, url) => ({ ...b, socialPreview: { url } }),
};
const kindOfPlace = (place: string): Kind => (place.endsWith('.to.url') ? 'link' : place === 'privacyPolicy.url' ? 'web-or-mailto' : 'web');
/** The dotted path as a pattern: list indexes are 0, and a message may join with dots or slashes. */
const placePattern = (place: string) => new RegExp(place.replace(/\*/g, '0').split('.').join('[./]'));

let baseCustomization: Customization;

function fields(): UrlField[] {
  const page = (selection: string) => async () => [await node(ids.linkPage, selection), await node(ids.docPage, '... on Page { markdown }'), await get(`/v1/spaces/${ids.space}/content`)];
  const contentAndLinks = async () => [await get(`/v1/spaces/${ids.space}/content`), await get(`/v1/spaces/${ids.space}/links`)];
  return [
    {
      name: 'link page href (pageCreate)',
      kind: 'link',
      field: /^href$/,
      graphql: (url) => mutate('pageCreate', { spaceId: gid('Space', ids.space), type: 'LINK', title: 'Out', href: url }),
      read: () => get(`/v1/spaces/${ids.space}/content`),
    },
    {
      name: 'link page href (pageUpdate)',
      kind: 'link',
      field: /^href$/,
      graphql: (url) => mutate('pageUpdate', { pageId: ids.linkPage, href: url }),
      read: page('... on Page { href }'),
    },
    {
      name: 'links and images in page markdown (pageCreate)',
      kind: 'link',
      field: /^markdown$/,
      graphql: (url) => mutate('pageCreate', { spaceId: gid('Space', ids.space), title: 'Doc', markdown: linkIn(url) }),
      read: contentAndLinks,
    },
    {
      name: 'links and images in page markdown (pageUpdate)',
      kind: 'link',
      field: /^markdown$/,
      graphql: (url) => mutate('pageUpdate', { pageId: ids.docPage, markdown: `Intro\n\n![shot](${dest(url)})` }),
      read: page('id'),
    },
    {
      name: 'comment body',
      kind: 'link',
      field: /^(body\.)?markdown$/,
      rest: (url) => rest('POST', `/v1/spaces/${ids.space}/comments`, { body: { markdown: linkIn(url) } }),
      graphql: (url) => mutate('commentPost', { spaceId: gid('Space', ids.space), markdown: `[docs]: ${dest(url)}\n\nSee [docs].` }),
      read: () => get(`/v1/spaces/${ids.space}/comments?format=markdown`),
    },
    {
      name: 'organization logo',
      kind: 'web',
      field: /^logo$/,
      rest: (url) => rest('PATCH', org(), { logo: url }),
      graphql: (url) => mutate('organizationUpdate', { organizationId: gid('Organization', acme.organizationId), logo: url }),
      read: () => get(org()),
    },
    {
      name: 'space icon',
      kind: 'web',
      field: /^icon$/,
      rest: (url) => rest('PATCH', `/v1/spaces/${ids.space}`, { icon: url }),
      graphql: (url) => mutate('spaceUpdate', { spaceId: gid('Space', ids.space), icon: url }),
      read: () => get(`/v1/spaces/${ids.space}`),
    },
    {
      name: 'visitor sign-in fallbackURL',
      kind: 'web',
      field: /^fallbackURL$/,
      rest: (url) => rest('PATCH', `${site()}/publishing/auth`, { fallbackURL: url }),
      read: () => get(`${site()}/publishing/auth`),
    },
    {
      name: 'SAML ssoURL',
      kind: 'web',
      field: /^sso(URL|Url)$/,
      rest: (url) => rest('PATCH', `${org()}/saml/${ids.saml}`, { ssoURL: url }),
      graphql: (url) => mutate('samlProviderUpdate', { samlProviderId: gid('SamlProvider', ids.saml), ssoUrl: url }),
      read: () => get(`${org()}/saml/${ids.saml}`),
    },
    {
      name: 'OpenAPI source url',
      kind: 'web',
      field: /^(source\.)?url$/,
      fetches: true,
      rest: (url) => rest('POST', `${org()}/openapi`, { slug: 'pets', source: { url } }),
      graphql: (url) => mutate('openApiSpecPublish', { organizationId: gid('Organization', acme.organizationId), slug: 'pets', url }),
      read: () => get(`${org()}/openapi`),
    },
    {
      name: 'integration externalLinks',
      kind: 'web',
      field: /^externalLinks\.0\.url$/,
      rest: (url) => rest('POST', '/v1/integrations/linker', manifest({ externalLinks: [{ label: 'Home', url }] })),
      read: () => get('/v1/integrations/linker'),
    },
    {
      name: 'integration summary (markdown)',
      kind: 'link',
      field: /^summary$/,
      rest: (url) => rest('POST', '/v1/integrations/linker', manifest({ summary: linkIn(url) })),
      read: () => get('/v1/integrations/linker'),
    },
    {
      name: 'translation instructions (document)',
      kind: 'link',
      field: /^instructions\.nodes\.0\.nodes\.0\.data\.ref\.url$/,
      rest: (url) => rest('PUT', `${org()}/translations/${ids.translation}`, { instructions: documentWith(url) }),
      graphql: (url) => mutate('translationUpdate', { translationId: gid('Translation', ids.translation), instructions: documentWith(url) }),
      read: () => get(`${org()}/translations/${ids.translation}`),
    },
    ...specUrlPaths('SiteCustomizationSettings').map(
      (place): UrlField => ({
        name: `site customization ${place}`,
        kind: kindOfPlace(place),
        field: placePattern(place),
        rest: (url) => rest('PUT', `${site()}/customization`, CUSTOMIZATION_PLACES[place](baseCustomization, url)),
        read: () => get(`${site()}/customization`),
      }),
    ),
  ];
}

beforeAll(async () => {
  ({ t, acme } = await scenario({}));
  ids.space = (await rest('POST', `${org()}/spaces`, { title: 'Links' })).body.id;
  const spaceGid = gid('Space', ids.space);
  const create = async (input: Record<string, unknown>) => {
    const res = await t.graphql('mutation ($input: PageCreateInput!) { pageCreate(input: $input) { page { id } userErrors { message } } }', { input: { spaceId: spaceGid, ...input } }, admin());
    expect(res.body.data.pageCreate.userErrors).toEqual([]);
    return res.body.data.pageCreate.page.id as string;
  };
  ids.docPage = await create({ title: 'Start', markdown: 'Hello.' });
  ids.linkPage = await create({ type: 'LINK', title: 'Website', href: 'https://example.com/' });
  ids.site = (await rest('POST', `${org()}/sites`, { title: 'Docs', spaces: [ids.space] })).body.id;
  baseCustomization = await get(`${site()}/customization`);
  const idp = await makeIdp();
  ids.saml = (await rest('POST', `${org()}/saml`, { label: 'Okta', entityID: idp.entityId, ssoURL: idp.ssoUrl, certificate: idp.certificate })).body.id;
  expect((await rest('POST', '/v1/integrations/linker', manifest({}))).status).toBe(200);
  ids.translation = (await rest('POST', `${org()}/translations`, { language: 'fr', source: { space: ids.space, language: 'en' } })).body.id;
});
afterAll(() => t?.close());

const expectRefusedRest = (res: RestResponse, field: RegExp, url: string) => {
  expect(res.status, `${JSON.stringify(url)}: ${JSON.stringify(res.body)}`).toBe(400);
  expect(res.body).toEqual({ error: { code: 400, message: expect.any(String) } });
  const named = res.body.error.message.split(/[\s:;,]+/).some((word: string) => field.test(word.replace(/^\//, '')));
  expect(named, `${JSON.stringify(url)}: ${res.body.error.message} should name ${field}`).toBe(true);
};
const expectRefusedGraphql = (payload: Awaited<ReturnType<NonNullable<UrlField['graphql']>>>, field: RegExp, url: string) => {
  expect(payload.userErrors, JSON.stringify(url)).toEqual([{ code: 'VALIDATION_FAILED', field: expect.any(Array), message: expect.any(String) }]);
  expect(payload.userErrors[0].field!.join('.'), JSON.stringify(url)).toMatch(field);
};

describe('every URL field refuses unsafe schemes, writing nothing, and takes the allowed forms', () => {
  it('covers every URL of the site customization in the official spec', () => {
    expect(specUrlPaths('SiteCustomizationSettings')).toEqual(Object.keys(CUSTOMIZATION_PLACES).sort());
  });

  it.each(fields().map((f) => [f.name, f] as const))('%s', async (_name, f) => {
    const before = await f.read();
    for (const url of UNSAFE) {
      if (f.rest) expectRefusedRest(await f.rest(url), f.field, url);
      if (f.graphql) expectRefusedGraphql(await f.graphql(url), f.field, url);
    }
    expect(await f.read()).toEqual(before);
    if (f.fetches) return;
    for (const url of ALLOWED[f.kind]) {
      if (f.rest) {
        const res = await f.rest(url);
        expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
        expect(JSON.stringify(await f.read())).toContain(JSON.stringify(url).slice(1, -1));
      }
      if (f.graphql) {
        expect((await f.graphql(url)).userErrors, url).toEqual([]);
        expect(JSON.stringify(await f.read())).toContain(JSON.stringify(url).slice(1, -1));
      }
    }
  });

  it('sees through disguises: controls, entities, percent-escapes, zero-width and full-width letters, other schemes, backslashes', async () => {
    const before = [await get(`${site()}/customization`), await node(ids.linkPage, '... on Page { href }')];
    for (const url of DISGUISES) {
      expectRefusedRest(await rest('PUT', `${site()}/customization`, CUSTOMIZATION_PLACES['header.links.*.to.url'](baseCustomization, url)), /^header[./]links[./]0[./]to[./]url$/, url);
      expectRefusedGraphql(await mutate('pageUpdate', { pageId: ids.linkPage, href: url }), /^href$/, url);
    }
    expect([await get(`${site()}/customization`), await node(ids.linkPage, '... on Page { href }')]).toEqual(before);
  });
});
