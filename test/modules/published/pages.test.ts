import { SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TEST_ORIGIN, type TestApp } from '../../support/clients';
import type { OrgFixture } from '../../support/factories';
import { scenario } from '../../support/scenario';
import { contentBench } from '../../support/change-requests';

/** Published sites as readers get them, without a browser: HTML, access rules, crawler files, caching. */
let t: TestApp;
let acme: OrgFixture;

beforeAll(async () => {
  ({ t, acme } = await scenario({}));
});
afterAll(() => t?.close());

const api = (method: string, path: string, body?: unknown) => t.rest(method, path, { token: acme.admin.token, body });
const sitesPath = () => `/v1/orgs/${acme.organizationId}/sites`;

async function publishedSite(visibility = 'public', pages = [{ title: 'Welcome', markdown: '# Hello\n\nSee [the guide](guide).\n\n## Details\n\n```js\nconst x = 1;\n```' }, { title: 'Guide', markdown: 'Guide text.' }]) {
  const bench = await contentBench(() => t, () => acme, pages);
  const site = (await api('POST', sitesPath(), { title: 'Reader site', visibility, spaces: [bench.spaceId] })).body;
  expect((await api('POST', `${sitesPath()}/${site.id}/publish`)).status).toBe(200);
  const url = (await api('GET', `${sitesPath()}/${site.id}`)).body.urls.published as string;
  return { bench, site, url };
}

async function get(url: string, headers: Record<string, string> = {}) {
  const res = await t.app.fetch(new Request(url.startsWith('http') ? url : `${TEST_ORIGIN}${url}`, { headers }));
  return { status: res.status, headers: res.headers, text: await res.text() };
}

describe('published pages', () => {
  it('renders the first page with the sidebar, links between pages, highlighted code, an outline and a pager', async () => {
    const { url } = await publishedSite();
    const home = await get(url);
    expect(home.status).toBe(200);
    expect(home.headers.get('content-type')).toMatch(/text\/html/);
    expect(home.text).toContain('<title>Welcome | Reader site</title>');
    expect(home.text).toContain(`href="${url}/guide"`);
    expect(home.text).toMatch(/<h2 id="details">Details<\/h2>/);
    expect(home.text).toContain('class="hljs-keyword"');
    expect(home.text).toMatch(/On this page.*href="#details"/s);
    expect(home.text).toMatch(/rel="next" href="[^"]*\/guide"><small>Next<\/small>Guide/);
    const guide = await get(`${url}/guide`);
    expect(guide.text).toMatch(/rel="prev"[^>]*><small>Previous<\/small>← Welcome/);
    expect((await get(`${url}/nowhere`)).status).toBe(404);
    expect((await get(`${url}/nowhere`)).text).toContain('Page not found');
  });

  it('escapes what authors write: a page titled <script> renders as text, and raw HTML is sanitized', async () => {
    const { url } = await publishedSite('public', [{ title: '<script>alert(1)</script>', markdown: 'Hi <script>alert(2)</script> <img src=x onerror=alert(3)>' }]);
    const home = await get(url);
    expect(home.text).not.toContain('<script>');
    expect(home.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(home.text).not.toContain('onerror');
  });

  it('answers 304 to a repeated request, and a new ETag once the content changes', async () => {
    const { url, bench } = await publishedSite();
    const first = await get(url);
    const etag = first.headers.get('etag')!;
    expect(etag).toBeTruthy();
    expect((await get(url, { 'if-none-match': etag })).status).toBe(304);
    await bench.space.update('Welcome', { markdown: 'Changed.' });
    const after = await get(url, { 'if-none-match': etag });
    expect(after.status).toBe(200);
    expect(after.text).toContain('Changed.');
  });

  it('gives crawlers a sitemap and robots rules per visibility, leaving out hidden and noIndex pages', async () => {
    const { url, bench } = await publishedSite('public', [{ title: 'One', markdown: '1' }, { title: 'Two', markdown: '2' }, { title: 'Secret', markdown: 's' }, { title: 'Quiet', markdown: 'q' }]);
    await bench.space.update('Secret', { hidden: true });
    await bench.space.update('Quiet', { noIndex: true });
    const sitemap = await get(`${url}/sitemap.xml`);
    expect(sitemap.headers.get('content-type')).toMatch(/xml/);
    expect([...sitemap.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1])).toEqual([`${url}/one`, `${url}/two`]);
    expect((await get(`${url}/robots.txt`)).text).toBe(`User-agent: *\nAllow: /\nSitemap: ${url}/sitemap.xml\n`);
    expect((await get(`${url}/quiet`)).text).toContain('<meta name="robots" content="noindex,nofollow">');

    const unlisted = await publishedSite('unlisted');
    expect((await get(unlisted.url)).status).toBe(200);
    expect((await get(unlisted.url)).text).toContain('noindex');
    expect((await get(`${unlisted.url}/robots.txt`)).text).toBe('User-agent: *\nDisallow: /\n');
    expect((await get(`${unlisted.url}/sitemap.xml`)).status).toBe(404);
  });

  it('keeps a share-link site behind its key, remembers the key in a cookie, and closes when it is revoked', async () => {
    const { url, site } = await publishedSite('share-link');
    expect((await get(url)).status).toBe(401);
    const link = (await api('POST', `${sitesPath()}/${site.id}/share-links`, { name: 'Partners' })).body;
    const key = new URL(link.urls.published).searchParams.get('shareKey')!;
    const opened = await get(`${url}?shareKey=${key}`);
    expect(opened.status).toBe(200);
    const cookie = opened.headers.get('set-cookie')!.split(';')[0];
    expect((await get(`${url}/guide`, { cookie })).status).toBe(200);
    await api('DELETE', `${sitesPath()}/${site.id}/share-links/${link.id}`);
    expect((await get(`${url}/guide`, { cookie })).status).toBe(401);
  });

  it('sends visitors of a visitor-auth site to sign in, and lets in a token signed with the site key until it expires', async () => {
    const { url, site } = await publishedSite('visitor-auth');
    expect((await get(url)).status).toBe(401);
    await api('PATCH', `${sitesPath()}/${site.id}/publishing/auth`, { fallbackURL: 'https://login.example.com/start' });
    const redirect = await get(url);
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe(`https://login.example.com/start?location=${encodeURIComponent(url)}`);
    const { privateKey } = (await api('GET', `${sitesPath()}/${site.id}/publishing/auth`)).body;
    const sign = (key: string, exp: string) => new SignJWT({ plan: 'pro' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime(exp).sign(new TextEncoder().encode(key));
    const ok = await get(`${url}?jwt_token=${await sign(privateKey, '1h')}`);
    expect(ok.status).toBe(200);
    const cookie = ok.headers.get('set-cookie')!.split(';')[0];
    expect((await get(`${url}/guide`, { cookie })).status).toBe(200);
    expect((await get(`${url}?jwt_token=${await sign('not-the-key', '1h')}`)).status).toBe(302);
    const expired = new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setExpirationTime(Math.floor(Date.now() / 1000) - 60);
    expect((await get(`${url}?jwt_token=${await expired.sign(new TextEncoder().encode(privateKey))}`)).status).toBe(302);
    // A new key retires every token signed with the old one.
    await api('POST', `${sitesPath()}/${site.id}/publishing/auth/regenerate`);
    expect((await get(`${url}/guide`, { cookie })).status).toBe(302);
  });

  it('shows conditional sections only to visitors whose claims match', async () => {
    const { url, site, bench } = await publishedSite('public');
    const pro = await contentBench(() => t, () => acme, [{ title: 'Pro features', markdown: 'For pro plans.' }]);
    await api('POST', `${sitesPath()}/${site.id}/sections`, { spaceId: bench.spaceId, title: 'Docs' });
    const section = (await api('POST', `${sitesPath()}/${site.id}/sections`, { spaceId: pro.spaceId, title: 'Pro' })).body;
    await api('PATCH', `${sitesPath()}/${site.id}/sections/${section.id}`, { condition: 'visitor.claims.plan == "pro"' });
    const { privateKey } = (await api('GET', `${sitesPath()}/${site.id}/publishing/auth`)).body;
    const token = async (plan: string) => new SignJWT({ plan }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(new TextEncoder().encode(privateKey));
    const anonymous = await get(url);
    expect(anonymous.text).not.toContain('>Pro<');
    expect((await get(`${url}/pro`)).status).toBe(404);
    const free = await get(`${url}/pro?jwt_token=${await token('free')}`);
    expect(free.status).toBe(404);
    const paying = await get(`${url}/pro?jwt_token=${await token('pro')}`);
    expect(paying.status).toBe(200);
    expect(paying.text).toContain('For pro plans.');
  });

  it('renders with the saved customization, checked against the platform schema', async () => {
    const { url, site } = await publishedSite();
    const current = (await api('GET', `${sitesPath()}/${site.id}/customization`)).body;
    const changed = { ...current, title: 'Branded docs', styling: { ...current.styling, primaryColor: { light: '#ff0000', dark: '#00ff00' } } };
    expect((await api('PUT', `${sitesPath()}/${site.id}/customization`, changed)).status).toBe(200);
    const home = await get(url);
    expect(home.text).toContain('Branded docs');
    // Following the system's theme, the page carries both colours; the stylesheet picks one.
    expect(home.text).toContain('--accent:#ff0000');
    expect(home.text).toContain('--accent:#00ff00');
    const branded = {
      ...changed,
      // No switch: the site's default theme is the only one.
      themes: { default: 'dark', toggeable: false },
      favicon: { emoji: '1f680' },
      header: { ...current.header, logo: { light: 'https://cdn.example.com/logo-light.png', dark: 'https://cdn.example.com/logo-dark.png' }, links: [{ title: 'Status', to: { kind: 'url', url: 'https://status.example.com' }, links: [] }] },
      footer: { groups: [{ title: 'Company', links: [{ title: 'Careers', to: { kind: 'url', url: 'https://example.com/careers' } }] }], copyright: '© Example' },
    };
    expect((await api('PUT', `${sitesPath()}/${site.id}/customization`, branded)).status).toBe(200);
    const dressed = await get(url);
    expect(dressed.text).toContain('class="dark"');
    expect(dressed.text).not.toContain('aria-label="Theme"');
    expect(dressed.text).toContain('src="https://cdn.example.com/logo-dark.png"');
    expect(dressed.text).not.toContain('logo-light.png');
    expect(dressed.text).toMatch(/<nav class="links"[^>]*><a href="https:\/\/status.example.com">Status<\/a>/);
    expect(dressed.text).toContain('<a href="https://example.com/careers">Careers</a>');
    expect(dressed.text).toContain('© Example');
    expect(dressed.text).toMatch(/<link rel="icon" href="data:image\/svg\+xml,/);
    expect((await get(`${url}?theme=light`)).text).not.toContain('logo-light.png');
    await api('PUT', `${sitesPath()}/${site.id}/customization`, { ...branded, themes: { default: 'dark', toggeable: true } });
    const both = await get(url);
    expect(both.text).not.toContain('class="dark"');
    expect(both.text).toMatch(/class="logo logo-light" src="https:\/\/cdn.example.com\/logo-light.png".*class="logo logo-dark"/);
    expect((await get(`${url}?theme=light`)).text).not.toContain('logo-dark.png');
    const bad = await api('PUT', `${sitesPath()}/${site.id}/customization`, { ...current, styling: { ...current.styling, corners: 'wobbly' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/corners/);
  });

  it("keeps the reader's theme in a cookie on the site's path, follows the system without one, and forgets it on Auto", async () => {
    const { url } = await publishedSite();
    const system = await get(url);
    expect(system.text).toMatch(/<html lang="en">/);
    expect(system.text).toContain('<meta name="color-scheme" content="light dark">');
    expect(system.headers.get('vary')).toMatch(/Cookie/);
    const chosen = await get(`${url}?theme=dark`);
    expect(chosen.text).toContain('<html lang="en" class="dark">');
    const setCookie = chosen.headers.get('set-cookie')!;
    expect(setCookie).toBe(`quire_theme=dark; Path=${new URL(url).pathname}; SameSite=Lax; Max-Age=31536000`);
    const cookie = setCookie.split(';')[0];
    expect((await get(`${url}/guide`, { cookie })).text).toContain('class="dark"');
    expect((await get(`${url}/~search?q=guide`, { cookie })).text).toContain('class="dark"');
    expect((await get(`${url}/nowhere`, { cookie })).text).toContain('class="dark"');
    // A 304 for a page built in another theme is not possible: the theme is part of the ETag.
    const etag = system.headers.get('etag')!;
    expect((await get(url, { cookie, 'if-none-match': etag })).status).toBe(200);
    const auto = await get(`${url}/guide?theme=system`, { cookie });
    expect(auto.headers.get('set-cookie')).toMatch(/^quire_theme=; .*Max-Age=0/);
    expect(auto.text).not.toContain('class="dark"');
  });

  it('leaves out a first H1 that repeats the title, shows no outline without subheadings, renders hints and the last update', async () => {
    const { url } = await publishedSite('public', [
      { title: 'Welcome', markdown: '# Welcome\n\nNo subheadings here.\n\n{% hint style="warning" %}\nMind the **gap**.\n{% endhint %}\n\n{% hint style="success" %}\n\nFirst paragraph.\n\nSecond paragraph.\n\n{% endhint %}' },
      { title: 'Guide', markdown: '# Guide to more\n\n## Part' },
    ]);
    const home = (await get(url)).text;
    expect(home.match(/<h1[ >]/g)).toHaveLength(1);
    expect(home).toContain('<main class="nooutline">');
    expect(home).not.toContain('On this page');
    expect(home).toContain('<div class="hint hint-warning" role="note"><p>Mind the <strong>gap</strong>.</p></div>');
    expect(home).toMatch(/<div class="hint hint-success" role="note">\s*<p>First paragraph.<\/p>\s*<p>Second paragraph.<\/p>\s*<\/div>/);
    expect(home).not.toContain('{%');
    expect(home).toMatch(/<p class="updated">Last updated <time datetime="\d{4}-\d\d-\d\dT[^"]+">[A-Z][a-z]+ \d{1,2}, \d{4}<\/time><\/p>/);
    const guide = (await get(`${url}/guide`)).text;
    // Another H1 is the author's: it stays, and the page with a subheading has its outline.
    expect(guide).toMatch(/<h1 id="guide-to-more">Guide to more<\/h1>/);
    expect(guide).toMatch(/<details class="outline"><summary>On this page<\/summary>/);
  });

  it("answers favicon.ico with the site's icon, its emoji, or its letter, and allows only its own script", async () => {
    const { url, site } = await publishedSite();
    const letter = await get(`${url}/favicon.ico`);
    expect(letter.status).toBe(200);
    expect(letter.headers.get('content-type')).toBe('image/svg+xml');
    expect(letter.text).toMatch(/<svg[^>]*>.*>R<\/text><\/svg>$/);
    const home = await get(url);
    expect(home.text).toContain(`<link rel="icon" type="image/svg+xml" href="${url}/favicon.ico">`);
    expect(home.headers.get('content-security-policy')).toContain(`script-src ${url}/~quire/reader.js`);
    expect(home.text).toContain(`<script src="${url}/~quire/reader.js"></script>`);
    const script = await get(`${url}/~quire/reader.js`);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    const current = (await api('GET', `${sitesPath()}/${site.id}/customization`)).body;
    await api('PUT', `${sitesPath()}/${site.id}/customization`, { ...current, favicon: { emoji: '1f680' } });
    expect((await get(`${url}/favicon.ico`)).text).toContain('🚀');
    await api('PUT', `${sitesPath()}/${site.id}/customization`, { ...current, favicon: { icon: { light: 'https://cdn.example.com/icon.png', dark: 'https://cdn.example.com/icon-dark.png' } } });
    const icon = await get(`${url}/favicon.ico`);
    expect([icon.status, icon.headers.get('location')]).toEqual([302, 'https://cdn.example.com/icon.png']);
  });

  it('shows a section group as a tab with a menu of its sections, and its missing pages inside the site', async () => {
    const { url, site } = await publishedSite();
    const extra = await contentBench(() => t, () => acme, [{ title: 'REST', markdown: 'The REST door.' }]);
    const more = await contentBench(() => t, () => acme, [{ title: 'GraphQL', markdown: 'The GraphQL door.' }]);
    const start = await contentBench(() => t, () => acme, [{ title: 'Start', markdown: 'Start here.' }]);
    const sections = `${sitesPath()}/${site.id}/sections`;
    await api('POST', sections, { spaceId: start.spaceId, title: 'Start' });
    const rest = (await api('POST', sections, { spaceId: extra.spaceId, title: 'REST' })).body;
    const graphql = (await api('POST', sections, { spaceId: more.spaceId, title: 'GraphQL' })).body;
    const group = await api('POST', `${sitesPath()}/${site.id}/section-groups`, { title: 'APIs', sections: [rest.id, graphql.id] });
    expect(group.status).toBe(201);
    const page = (await get(`${url}/${rest.path}`)).text;
    const tabs = /<nav aria-label="Sections">([\s\S]*?)<\/nav>/.exec(page)![1];
    expect(tabs).toMatch(/^<a href="[^"]+">Start<\/a><details class="tabgroup"><summary class="active">APIs<\/summary><div class="tabmenu" role="group" aria-label="APIs">/);
    expect(tabs).toContain(`<a href="${url}/${rest.path}" class="active" aria-current="page">REST</a><a href="${url}/${graphql.path}">GraphQL</a>`);
    const missing = await get(`${url}/${rest.path}/nowhere`);
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('<h1>Page not found</h1>');
    expect(missing.text).toContain('<details class="tabgroup">');
    expect(missing.text).toMatch(/<nav class="pages-list" aria-label="Pages">.*>REST<\/a>/s);
    expect(missing.text).toContain('<meta name="robots" content="noindex,nofollow">');
  });

  it('serves a site behind its proxy by Host and path, and the sites of an organization on its own hostname', async () => {
    const { site } = await publishedSite();
    await api('PATCH', `${sitesPath()}/${site.id}`, { proxy: 'docs.example.com/help', basename: 'handbook' });
    expect((await api('GET', `${sitesPath()}/${site.id}`)).body.urls.published).toBe('https://docs.example.com/help');
    const proxied = await get('http://docs.example.com/help/guide');
    expect(proxied.status).toBe(200);
    expect(proxied.text).toContain('Guide text.');
    expect(proxied.text).toContain('href="https://docs.example.com/help"');
    expect((await get('http://docs.example.com/elsewhere')).status).toBe(404);

    const host = `h${acme.organizationId.slice(0, 8).toLowerCase().replace(/[^a-z0-9]/g, 'x')}`;
    expect((await api('PATCH', `/v1/orgs/${acme.organizationId}`, { hostname: host })).status).toBe(200);
    await api('PATCH', `${sitesPath()}/${site.id}`, { proxy: null });
    const own = await get(`http://${host}.quire.site/handbook/guide`);
    expect(own.status).toBe(200);
    expect(own.text).toContain('Guide text.');
  });

  it('searches the pages a reader can open, with escaped snippets that mark the words found', async () => {
    const { url, bench } = await publishedSite('public', [
      { title: 'Welcome', markdown: 'Start here.' },
      { title: 'Deploying', markdown: '# Deploying\n\nRun the container <b>carefully</b> with docker.' },
      { title: 'Quiet', markdown: 'docker secrets live here' },
    ]);
    await bench.space.update('Quiet', { noIndex: true });
    const found = await get(`${url}/~search?q=docker`);
    expect(found.status).toBe(200);
    expect(found.text).toContain(`href="${url}/deploying"`);
    expect(found.text).toMatch(/<mark>docker<\/mark>/);
    expect(found.text).not.toContain('<b>carefully');
    const results = /<ol class="results">[\s\S]*<\/ol>/.exec(found.text)![0];
    expect(results).toContain(`${url}/deploying`);
    expect(results).not.toContain(`${url}/quiet`);
    expect((await get(`${url}/~search?q=nothingmatches`)).text).toContain('Nothing found');
    expect((await get(url)).text).toContain(`action="${url}/~search"`);
  });

  it('finds word forms and the word being typed, the exact word first, and never fails on query syntax', async () => {
    const { url } = await publishedSite('public', [
      { title: 'Changes', markdown: 'Older revisions stay readable; revisions are kept, and revisions can be compared.' },
      { title: 'History', markdown: 'Every revision has an author.' },
    ]);
    const order = (html: string) => [...(/<ol class="results">[\s\S]*<\/ol>/.exec(html)?.[0] ?? '').matchAll(/class="result" href="[^"]*\/([a-z-]+)"/g)].map((m) => m[1]);
    const exact = await get(`${url}/~search?q=revision`);
    expect(exact.status).toBe(200);
    expect(order(exact.text)).toEqual(['history', 'changes']);
    const typing = await get(`${url}/~search?q=revis`);
    expect(order(typing.text).sort()).toEqual(['changes', 'history']);
    expect(typing.text).toContain('<mark>revisions</mark>');
    for (const q of ["'", '&|!():*\\', "'revis':*", '"unclosed revis', 'revis\\', '%00', '%FF']) {
      const res = await get(`${url}/~search?q=${q.startsWith('%') ? q : encodeURIComponent(q)}`);
      expect([200, 400], q).toContain(res.status);
    }
  });
});

describe('visitor token lifetime', () => {
  const hour = 3600;
  let url: string;
  let cookieName: string;
  let sign: (claims: { iat?: number; exp?: number }) => Promise<string>;
  /** The server's clock, in seconds, fixed for these tests. */
  let now: number;

  beforeAll(async () => {
    const published = await publishedSite('visitor-auth');
    url = published.url;
    cookieName = `quire_visitor_${published.site.id}`;
    await api('PATCH', `${sitesPath()}/${published.site.id}/publishing/auth`, { fallbackURL: 'https://login.example.com/start' });
    const { privateKey } = (await api('GET', `${sitesPath()}/${published.site.id}/publishing/auth`)).body;
    sign = ({ iat, exp }) => {
      const jwt = new SignJWT({ plan: 'pro' }).setProtectedHeader({ alg: 'HS256' });
      if (iat !== undefined) jwt.setIssuedAt(iat);
      if (exp !== undefined) jwt.setExpirationTime(exp);
      return jwt.sign(new TextEncoder().encode(privateKey));
    };
  });
  beforeEach(() => {
    now = Math.floor(Date.now() / 1000);
    t.clock.now = new Date(now * 1000);
  });
  afterEach(() => {
    t.clock.now = null;
  });

  /** Each token must be sent to sign in, as a bad token is, and leave no cookie; so must the same token brought back by the cookie. */
  async function expectRefused(tokens: Record<string, { iat?: number; exp?: number }>) {
    for (const [what, claims] of Object.entries(tokens)) {
      const token = await sign(claims);
      const res = await get(`${url}?jwt_token=${token}`);
      expect([what, res.status, res.headers.get('location')?.startsWith('https://login.example.com/start?location='), res.headers.get('set-cookie')]).toEqual([what, 302, true, null]);
      expect([what, (await get(url, { cookie: `${cookieName}=${token}` })).status]).toEqual([what, 302]);
    }
  }

  it('refuses a token without an expiry', async () => {
    await expectRefused({ 'no expiry': {}, 'no expiry, issued now': { iat: now } });
  });

  it('refuses a token past its expiry by more than 30 s of clock skew', async () => {
    await expectRefused({ 'expired 31 s ago': { iat: now - hour, exp: now - 31 }, 'expired a day ago': { exp: now - 24 * hour } });
  });

  it('refuses a token that lives longer than 24 hours, or says it was issued in the future', async () => {
    await expectRefused({
      'expiring in 24 h 31 s, no issue time': { exp: now + 24 * hour + 31 },
      'expiring in 48 h, issued now': { iat: now, exp: now + 48 * hour },
      'living 24 h 1 s from its issue time': { iat: now - hour, exp: now + 23 * hour + 1 },
      'issued 31 s in the future': { iat: now + 31, exp: now + hour },
    });
  });

  it('lets in a token within the limits and 30 s of clock skew, with a cookie that ends when the token does', async () => {
    const accepted: [string, { iat?: number; exp?: number }, number][] = [
      ['an hour', { iat: now, exp: now + hour }, hour],
      ['24 h, no issue time', { exp: now + 24 * hour }, 24 * hour],
      ['24 h from its issue time', { iat: now - hour, exp: now + 23 * hour }, 23 * hour],
      ['expired 10 s ago', { iat: now - hour, exp: now - 10 }, 0],
      ['issued 10 s in the future', { iat: now + 10, exp: now + hour }, hour],
    ];
    for (const [what, claims, maxAge] of accepted) {
      const res = await get(`${url}?jwt_token=${await sign(claims)}`);
      expect([what, res.status, res.headers.get('set-cookie')?.match(/; Max-Age=(\d+)/)?.[1]]).toEqual([what, 200, String(maxAge)]);
    }
    const cookie = `${cookieName}=${await sign({ iat: now, exp: now + hour })}`;
    expect((await get(`${url}/guide`, { cookie })).status).toBe(200);
    t.clock.now = new Date((now + hour + 31) * 1000);
    expect((await get(`${url}/guide`, { cookie })).status).toBe(302);
  });
});
