import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CHROMIUM, launchChromium } from '../support/browser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAppPath, type AppRoute } from '../../src/lib/app-paths';
import { TEST_ORIGIN, startTestApp, type TestApp } from '../support/clients';
import { send } from '../support/doors';
import { buildOrganization, type OrgFixture } from '../support/factories';
import { restOperations } from '../support/surface';
import { buildTenant } from '../support/tenant-sweep';
import { startTranslateServer, type TranslateServer } from '../support/translate-server';

/**
 * Every `urls.app` link the API hands out opens a page. The links are collected from the answers
 * themselves: every GET route of the route table is called with a real organization's ids
 * (test/support/tenant-sweep.ts builds one through the API), and each answer is walked for any
 * `urls.app`, so a new kind of object is covered without a line here. GraphQL's search results
 * carry the same addresses as `url`.
 */
let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;
let engine: TranslateServer;
let ids: Record<string, string>;
const links = new Map<string, string>();

/** Every `urls.app` string in a JSON answer, walked with an explicit stack (no recursion, bounded depth). */
function appUrlsIn(body: unknown, found: (url: string) => void): void {
  const stack: { value: unknown; depth: number }[] = [{ value: body, depth: 0 }];
  while (stack.length) {
    const { value, depth } = stack.pop()!;
    if (!value || typeof value !== 'object' || depth > 64) continue;
    const record = value as Record<string, unknown>;
    const urls = record.urls as Record<string, unknown> | undefined;
    if (!Array.isArray(value) && urls && typeof urls === 'object' && typeof urls.app === 'string') found(urls.app);
    for (const child of Object.values(record)) stack.push({ value: child, depth: depth + 1 });
  }
}

const browserRequired = !!process.env.QUIRE_REQUIRE_BROWSER;
const SCREENSHOTS = join(process.cwd(), 'test-results', 'screenshots');

const fill = (path: string, own: Record<string, string>) => path.replace(/[:*]([A-Za-z]+)/g, (_, name: string) => own[name] ?? `no-${name}`);

const open = (url: string, init: RequestInit = {}) => t.app.fetch(new Request(url, { headers: { accept: 'text/html' }, ...init }));

beforeAll(async () => {
  engine = await startTranslateServer();
  t = await startTestApp({}, { jobs: true });
  acme = await buildOrganization(t.db, 'Acme');
  other = await buildOrganization(t.db, 'Other');
  ({ ids } = await buildTenant(t, acme, engine));
  for (const route of restOperations().filter((r) => r.method === 'GET')) {
    const own = route.path.includes('/change-requests/') ? { ...ids, commentId: ids.crCommentId, replyId: ids.crReplyId } : ids;
    const path = fill(route.path, own) + (route.path.endsWith('/search') ? '?query=guide' : '');
    const res = await t.app.fetch(new Request(`${TEST_ORIGIN}${path}`, { headers: { authorization: `Bearer ${acme.admin.token}` } }));
    if (!res.headers.get('content-type')?.includes('json')) {
      await res.arrayBuffer();
      continue;
    }
    appUrlsIn(await res.json(), (url) => links.set(url, `GET ${route.path}`));
  }
  const search = await t.graphql(
    'query ($id: ID!) { organization(id: $id) { search(query: "guide", first: 5) { edges { node { pages { url sections { url } } } } } } }',
    { id: acme.organizationId },
    acme.admin.token,
  );
  expect(search.body.errors).toBeUndefined();
  for (const edge of search.body.data.organization.search.edges) {
    for (const page of edge.node.pages) {
      links.set(page.url, 'GraphQL SearchPageHit.url');
      for (const section of page.sections) links.set(section.url, 'GraphQL SearchSection.url');
    }
  }
}, 600_000);
afterAll(async () => {
  await t?.close();
  await engine?.stop();
});

describe('urls.app links', () => {
  it('the answers carry links to every kind of object', () => {
    const kinds = new Set([...links.keys()].map((url) => parseAppPath(new URL(url).pathname)?.kind ?? `unparsed: ${url}`));
    const expected: AppRoute['kind'][] = ['organization', 'space', 'page', 'changeRequest', 'revision', 'collection', 'site', 'openapi', 'installation', 'integration'];
    expect([...kinds].sort()).toEqual([...expected].sort());
    expect([...links.values()]).toContain('GraphQL SearchPageHit.url');
  });

  it('every link answers 200 with an HTML page that loads only its own script', async () => {
    const failures: string[] = [];
    for (const [url, source] of links) {
      expect(url.startsWith(`${TEST_ORIGIN}/`)).toBe(true);
      // A browser keeps the fragment (a section's anchor) to itself.
      const res = await open(url.split('#')[0]);
      const html = await res.text();
      const csp = res.headers.get('content-security-policy') ?? '';
      if (res.status !== 200 || !res.headers.get('content-type')?.startsWith('text/html') || !html.includes('<script src="/app/assets/app.') || !csp.includes("script-src 'self'")) {
        failures.push(`${url} (from ${source}) -> ${res.status} ${res.headers.get('content-type')}`);
      }
    }
    expect(failures).toEqual([]);
    expect(links.size).toBeGreaterThan(20);
  });

  it("the page does not tell an existing object from a missing or another organization's one", async () => {
    const page = async (path: string, id: string) => {
      const res = await open(`${TEST_ORIGIN}${path}`);
      return { status: res.status, type: res.headers.get('content-type'), csp: res.headers.get('content-security-policy'), body: (await res.text()).replaceAll(id, 'ID') };
    };
    const otherSpace = await send(t, other.admin.token, 'POST', `/v1/orgs/${other.organizationId}/spaces`, { title: 'Elsewhere' });
    const mine = await page(`/o/${acme.organizationId}/s/${ids.spaceId}`, ids.spaceId);
    expect(mine.status).toBe(200);
    expect(await page(`/o/${acme.organizationId}/s/${otherSpace.id}`, otherSpace.id)).toEqual(mine);
    expect(await page(`/o/${acme.organizationId}/s/nosuchspace`, 'nosuchspace')).toEqual(mine);
  });

  it('paths no link uses, other methods and overlong paths stay 404', async () => {
    const long = `/o/${acme.organizationId}/s/${ids.spaceId}/${'a/'.repeat(1100)}end`;
    for (const path of ['/o', '/o/', `/o/${acme.organizationId}/x/1`, `/o/${acme.organizationId}/s/${ids.spaceId}/~/nope/1`, '/integrations/a/b', '/nothing', `/o/${acme.organizationId}/s/../x`, long]) {
      const res = await open(`${TEST_ORIGIN}${path}`);
      expect(res.status, path).toBe(404);
      expect((await res.json()).error.code).toBe(404);
    }
    const post = await open(`${TEST_ORIGIN}/o/${acme.organizationId}/`, { method: 'POST' });
    expect(post.status).toBe(404);
    await post.arrayBuffer();
  });

  it('the root stays the JSON index for API clients and is the app for a browser', async () => {
    const api = await t.app.fetch(new Request(`${TEST_ORIGIN}/`));
    expect(await api.json()).toMatchObject({ graphql: '/graphql', rest: '/v1' });
    const browser = await open(`${TEST_ORIGIN}/`);
    expect(browser.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await browser.text()).toContain('"kind":"home"');
  });

  it('the script and style are served with a long cache, and only those', async () => {
    const html = await (await open(`${TEST_ORIGIN}/o/${acme.organizationId}/`)).text();
    const assets = [...html.matchAll(/(?:src|href)="(\/app\/assets\/[^"]+)"/g)].map((m) => m[1]);
    expect(assets).toHaveLength(2);
    for (const path of assets) {
      const res = await t.app.fetch(new Request(`${TEST_ORIGIN}${path}`));
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toContain('immutable');
      await res.arrayBuffer();
    }
    expect((await t.app.fetch(new Request(`${TEST_ORIGIN}/app/assets/app.0000.js`))).status).toBe(404);
  });

  it.skipIf(!existsSync(CHROMIUM) && !browserRequired)('in Chromium, every kind of link shows its object, with no error', async () => {
    const server = await t.serve();
    const browser = await launchChromium({ [new URL(TEST_ORIGIN).host]: new URL(server.url).host });
    mkdirSync(SCREENSHOTS, { recursive: true });
    try {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') problems.push(`${page.url()}: ${message.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`${page.url()}: ${error.message}`));
      await page.goto(`${TEST_ORIGIN}/#token=${acme.admin.token}`);
      await expect.poll(() => page.locator('main h1').textContent(), { timeout: 15_000 }).toBe('Your organizations');
      const shown: string[] = [];
      const perKind = new Map<string, number>();
      const pageBodies: string[] = [];
      for (const url of links.keys()) {
        const kind = parseAppPath(new URL(url).pathname)!.kind;
        if ((perKind.get(kind) ?? 0) >= 3) continue;
        perKind.set(kind, (perKind.get(kind) ?? 0) + 1);
        await page.goto(url);
        await expect.poll(() => page.locator('main').textContent(), { timeout: 15_000 }).not.toMatch(/^Loading/);
        const h1 = await page.locator('main h1').first().textContent();
        const alert = await page.locator('[role=alert]').count();
        shown.push(`${kind}: ${h1}${alert ? ` (alert: ${await page.locator('[role=alert]').first().textContent()})` : ''}`);
        if (kind === 'page') pageBodies.push((await page.locator('main pre').allTextContents()).join(''));
        if (perKind.get(kind) === 1) await page.screenshot({ path: join(SCREENSHOTS, `app-${kind}.png`), fullPage: true });
      }
      expect(shown.filter((line) => line.includes('Not found') || line.includes('alert'))).toEqual([]);
      expect(problems).toEqual([]);
      // A page shows its text, as the API gives it in markdown.
      expect(pageBodies.join('\n').length).toBeGreaterThan(0);
      await context.close();
    } finally {
      await browser.close();
      await server.stop();
    }
  }, 120_000);
});
