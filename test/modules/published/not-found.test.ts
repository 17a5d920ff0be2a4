import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ORIGIN, type TestApp } from '../../support/clients';
import type { OrgFixture } from '../../support/factories';
import { scenario } from '../../support/scenario';
import { contentBench } from '../../support/change-requests';

/**
 * What a reader gets for a published address that leads nowhere, through HTTP: a missing site is one
 * fixed, styled page whatever the reason (never existed, unpublished, another organization's); a site
 * that exists but has nothing to show there answers its 404 in its own look, with a way back to its root.
 */
let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;

beforeAll(async () => {
  ({ t, acme, other } = await scenario({}));
});
afterAll(() => t?.close());

const api = (method: string, path: string, body?: unknown, token = acme.admin.token) => t.rest(method, path, { token, body });
const sitesPath = (org = acme) => `/v1/orgs/${org.organizationId}/sites`;

async function get(url: string, headers: Record<string, string> = {}) {
  const res = await t.app.fetch(new Request(url.startsWith('http') ? url : `${TEST_ORIGIN}${url}`, { headers }));
  return { status: res.status, headers: res.headers, text: await res.text() };
}

async function site(spaceId: string, publish = true) {
  const created = (await api('POST', sitesPath(), { title: 'Handbook', visibility: 'public', spaces: [spaceId] })).body;
  if (publish) expect((await api('POST', `${sitesPath()}/${created.id}/publish`)).status).toBe(200);
  return { site: created, url: `${TEST_ORIGIN}/sites/${acme.organizationId}/${created.id}` };
}

/** What a cache or a reader can tell answers apart by. */
const seen = (answer: Awaited<ReturnType<typeof get>>) => ({
  status: answer.status,
  text: answer.text,
  type: answer.headers.get('content-type'),
  policy: answer.headers.get('content-security-policy'),
  cache: answer.headers.get('cache-control'),
  cookie: answer.headers.get('set-cookie'),
});

describe('published addresses that lead nowhere', () => {
  it('answers a missing site with one small styled page, the same for an unpublished site and another organization', async () => {
    const bench = await contentBench(() => t, () => acme, [{ title: 'Welcome', markdown: 'Hello.' }]);
    const never = await get(`/sites/${acme.organizationId}/no-such-site`);
    expect(never.status).toBe(404);
    expect(never.text).toContain('<h1>Site not found</h1>');
    expect(never.text).toContain('<meta name="viewport" content="width=device-width,initial-scale=1">');
    expect(never.text).not.toMatch(/<script|\son\w+=|src=|https?:/i);
    expect(never.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(never.headers.get('content-security-policy')).not.toContain('script-src');

    const unpublished = await site(bench.spaceId, false);
    expect(seen(await get(unpublished.url))).toEqual(seen(never));
    expect(seen(await get(`${unpublished.url}/welcome`))).toEqual(seen(never));
    // Unpublished after being read: the same answer again, nothing of the site's name or look.
    const published = await site(bench.spaceId);
    expect((await get(published.url)).status).toBe(200);
    expect((await api('POST', `${sitesPath()}/${published.site.id}/unpublish`)).status).toBe(200);
    expect(seen(await get(published.url))).toEqual(seen(never));
    // Another organization's path to this site.
    expect(seen(await get(`/sites/${other.organizationId}/${published.site.id}`))).toEqual(seen(never));
    expect(never.text).not.toContain('Handbook');
  });

  it('answers a site whose space has no page yet in the site look, with a link to its root', async () => {
    const empty = (await api('POST', `/v1/orgs/${acme.organizationId}/spaces`, { title: 'Empty space' })).body;
    const { url } = await site(empty.id);
    for (const path of ['', '/anything', '/anything/deeper']) {
      const answer = await get(`${url}${path}`);
      expect(answer.status).toBe(404);
      expect(answer.text).toContain(`<a class="home" href="${url}">Handbook</a>`);
      expect(answer.text).toContain('<h1>Page not found</h1>');
      expect(answer.text).toContain(`<a href="${url}">Go to the home page</a>`);
      expect(answer.text).toContain('<div class="theme" role="group" aria-label="Theme">');
      expect(answer.text).toContain('<meta name="robots" content="noindex,nofollow">');
      // The site's own script by URL, allowed by the page's policy; no inline script.
      expect(answer.text).not.toMatch(/<script>/);
      expect(answer.headers.get('content-security-policy')).toContain(`script-src ${url}/`);
    }
    // The theme chosen there is kept, as on the site's other pages.
    const dark = await get(`${url}/anything?theme=dark`);
    expect(dark.text).toMatch(/^<!doctype html><html lang="en" class="dark">/);
    expect(dark.headers.get('set-cookie')).toMatch(/^quire_theme=dark; Path=\/sites\//);
  });

  it('answers a site whose space was deleted in the site look', async () => {
    const bench = await contentBench(() => t, () => acme, [{ title: 'Welcome', markdown: 'Hello.' }]);
    const { url } = await site(bench.spaceId);
    expect((await api('DELETE', `/v1/spaces/${bench.spaceId}`)).status).toBeLessThan(300);
    const answer = await get(`${url}/welcome`);
    expect(answer.status).toBe(404);
    expect(answer.text).toContain(`<a class="home" href="${url}">Handbook</a>`);
    expect(answer.text).toContain(`<a href="${url}">Go to the home page</a>`);
    expect(answer.text).not.toContain('Welcome');
  });
});
