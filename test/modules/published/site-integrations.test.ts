import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { CHROMIUM, launchChromium } from '../../support/browser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeIntegrationRuntime } from '../../../src/runtime/deliver';
import { startLocalServer, type LocalServer } from '../integrations-runtime/support';
import { FIXTURES, gitbookCli, type Cli } from '../integrations/support';
import { startTestApp, type TestApp } from '../../support/clients';
import { gid } from '../../support/doors';
import { buildOrganization, type OrgFixture } from '../../support/factories';

/**
 * Integrations on published pages, as the catalogue's analytics and consent integrations use them:
 * a site installation's script (`fetch_published_script`) runs on every page, in Chromium, under
 * the page's Content-Security-Policy; a failing or stalled one leaves the page served without it;
 * page views (`site_view`) carry the visitor's cookies but not Quire's own.
 */
const available = existsSync(CHROMIUM);
if (!available && process.env.QUIRE_REQUIRE_BROWSER) throw new Error(`Chromium is required here (${CHROMIUM}): apt-get install chromium`);
const NAME = 'quire-site-script';
/** The integration's own host, as its manifest's policy names it; the browser resolves it to `beacon`. */
const BEACON_HOST = 'beacon.quire.test';

let t: TestApp;
let server: { url: string; stop(): Promise<void> };
let cli: Cli;
let acme: OrgFixture;
let beacon: LocalServer;
let siteId: string;
let installationId: string;
let pageUrl: string;

const api = (method: string, path: string, body?: unknown) => t.rest(method, path, { token: acme.admin.token, body });
const configure = (configuration: Record<string, unknown>) => api('PATCH', `/v1/integrations/${NAME}/installations/${installationId}/sites/${siteId}`, { configuration });

type EventItem = { id: string; status: string; payload: Record<string, any> };

async function events(type: string): Promise<EventItem[]> {
  const list = await api('GET', `/v1/integrations/${NAME}/events?limit=100`);
  return (list.body.items as EventItem[]).filter((e) => e.payload.type === type);
}

/**
 * Polls the integration's events until `count` of `type` are settled; the newest first. The list
 * shows a pending event as failed (the spec knows only outcomes): a failed one has its trace.
 */
async function settled(type: string, count: number): Promise<EventItem[]> {
  for (let tries = 0; ; tries++) {
    const done: EventItem[] = [];
    for (const e of await events(type)) {
      if (e.status === 'success' || (await api('GET', `/v1/integrations/${NAME}/events/${e.id}`)).body.trace.logs.length) done.push(e);
    }
    if (done.length >= count) return done;
    if (tries > 600) throw new Error(`${count} ${type} events never settled: ${JSON.stringify(await events(type))}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const getPage = (headers: Record<string, string> = {}) => fetch(pageUrl, { headers });

beforeAll(async () => {
  t = await startTestApp({}, { jobs: true });
  acme = await buildOrganization(t.db, 'Acme');
  server = await t.serve();
  t.config.publicUrl = server.url;
  cli = await gitbookCli();
  await cli.run(['auth', '--endpoint', server.url, '--token', acme.admin.token]);
  await cli.run(['publish', '--organization', acme.organizationId], { cwd: resolve(FIXTURES, NAME) });
  const spaceId = (await api('POST', `/v1/orgs/${acme.organizationId}/spaces`, { title: 'Guides' })).body.id;
  const edit = await t.graphql('mutation ($input: PageCreateInput!) { pageCreate(input: $input) { userErrors { message } } }', { input: { spaceId: gid('Space', spaceId), title: 'Welcome', markdown: 'Hello readers' } }, acme.admin.token);
  expect(edit.body.data.pageCreate.userErrors).toEqual([]);
  const sites = `/v1/orgs/${acme.organizationId}/sites`;
  siteId = (await api('POST', sites, { title: 'Docs', visibility: 'public', spaces: [spaceId] })).body.id;
  expect((await api('POST', `${sites}/${siteId}/publish`)).status).toBe(200);
  pageUrl = new URL(`${new URL((await api('GET', `${sites}/${siteId}`)).body.urls.published).pathname}/welcome`, server.url).toString();
  const installed = await api('POST', `/v1/integrations/${NAME}/installations`, { organization: acme.organizationId });
  expect(installed.status).toBe(201);
  installationId = installed.body.id;
  expect((await api('POST', `/v1/integrations/${NAME}/installations/${installationId}/sites`, { siteId })).status).toBe(201);
  expect((await configure({ trackingId: 'UA-1' })).status).toBe(200);
  beacon = await startLocalServer((r) =>
    r.url.startsWith('/lib.js')
      ? {
          status: 200,
          headers: { 'content-type': 'application/javascript' },
          body: `window.quireLib = new URL(document.currentScript.src).searchParams.get('id');
fetch('http://${BEACON_HOST}/hit?id=' + encodeURIComponent(window.quireLib), { method: 'POST', mode: 'no-cors', body: 'hit' });`,
        }
      : { status: 204 },
  );
}, 120_000);
afterAll(async () => {
  await cli?.dispose();
  await beacon?.close();
  await server?.stop();
  await t?.close();
  await closeIntegrationRuntime();
});

describe.skipIf(!available)('site scripts in a browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium({ [BEACON_HOST]: `127.0.0.1:${beacon.port}` });
  });
  afterAll(() => browser?.close());

  /** Opens the page; the browser's CSP reports and console errors come back with it. */
  async function open() {
    const context = await browser.newContext();
    const page = await context.newPage();
    const console: string[] = [];
    page.on('console', (m) => console.push(`${m.type()}: ${m.text()}`));
    await page.addInitScript(() => {
      (window as any).violations = [];
      document.addEventListener('securitypolicyviolation', (e) => (window as any).violations.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    const response = await page.goto(pageUrl);
    return { context, page, console, status: response?.status() };
  }

  it("runs the site installation's script on the published page, with what it loads and sends, and no CSP violation", async () => {
    // The first page asks the integration; a page waits a moment at most, so warm it before the browser comes.
    expect((await getPage()).status).toBe(200);
    const [asked] = await settled('fetch_published_script', 1);
    expect(asked).toMatchObject({ status: 'success', payload: { type: 'fetch_published_script', installationId, siteId } });

    const { context, page, console, status } = await open();
    expect(status).toBe(200);
    await page.waitForFunction(() => (window as any).quireLib !== undefined, undefined, { timeout: 10_000 });
    expect(await page.evaluate(() => (window as any).quireSiteScript)).toEqual({ trackingId: 'UA-1', siteId, marker: '</script><!--' });
    expect(await page.evaluate(() => (window as any).quireLib)).toBe('UA-1');
    await beacon.waitFor((r) => r.url === '/hit?id=UA-1');
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate(() => (window as any).violations)).toEqual([]);
    expect(console.filter((m) => /Content Security Policy|Refused/i.test(m))).toEqual([]);
    expect(await page.locator('article').textContent()).toContain('Hello readers');
    await context.close();

    // Kept: the next pages do not ask again.
    expect((await getPage()).status).toBe(200);
    expect(await events('fetch_published_script')).toHaveLength(1);
  });

  it('asks again when the site installation is configured anew, and the page carries the new script', async () => {
    expect((await configure({ trackingId: 'UA-2' })).status).toBe(200);
    await getPage();
    const asked = await settled('fetch_published_script', 2);
    expect(asked.map((e) => e.status), JSON.stringify(asked)).toEqual(['success', 'success']);
    const { context, page } = await open();
    await page.waitForFunction(() => (window as any).quireLib !== undefined, undefined, { timeout: 10_000 });
    expect(await page.evaluate(() => (window as any).quireSiteScript.trackingId)).toBe('UA-2');
    await beacon.waitFor((r) => r.url === '/hit?id=UA-2');
    expect(await page.evaluate(() => (window as any).violations)).toEqual([]);
    await context.close();
  });

  it('serves the page without the script when the integration fails, and does not ask again on every view', async () => {
    expect((await configure({ mode: 'fail' })).status).toBe(200);
    expect((await getPage()).status).toBe(200);
    expect((await settled('fetch_published_script', 3)).filter((e) => e.status === 'failed')).toHaveLength(1);
    const { context, page, status } = await open();
    expect(status).toBe(200);
    expect(await page.locator('article').textContent()).toContain('Hello readers');
    expect(await page.evaluate(() => (window as any).quireSiteScript)).toBeUndefined();
    // Only the site's own reader script.
    expect(await page.locator('script:not([src$="/~quire/reader.js"])').count()).toBe(0);
    await context.close();
    expect((await getPage()).status).toBe(200);
    expect(await events('fetch_published_script')).toHaveLength(3);
  });
});

describe('site scripts over HTTP', () => {
  it("puts the script inline with its hash and the hosts of the integration's policy in the page's CSP, and nothing the manifest may not add", async () => {
    expect((await configure({ trackingId: 'UA-3' })).status).toBe(200);
    let res = await getPage();
    for (let tries = 0; !(await res.clone().text()).includes('UA-3') && tries < 200; tries++) {
      await new Promise((r) => setTimeout(r, 50));
      res = await getPage();
    }
    const html = await res.text();
    expect(html).toContain('"UA-3"');
    expect(html).toContain("marker: '<\\/script><\\!--'");
    const csp = res.headers.get('content-security-policy')!;
    // The integration's hash and hosts, and the site's own reader script: nothing else runs.
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+' http:\/\/beacon\.quire\.test http:\/\/[^ ;]+\/~quire\/reader\.js(;|$)/);
    expect(csp).toContain('connect-src http://beacon.quire.test');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-eval');
  });

  it('serves the page at once without the script while the integration stalls', async () => {
    expect((await configure({ mode: 'stall' })).status).toBe(200);
    const res = await getPage();
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('Hello readers');
    expect(html).not.toContain('<script>');
    expect(res.headers.get('content-security-policy')).toMatch(/script-src http:\/\/[^ ;]+\/~quire\/reader\.js(;|$)/);
  });
});

describe('page views', () => {
  it("tell the integration the visitor's cookies, without Quire's share key and visitor token", async () => {
    const res = await getPage({ cookie: `consent=granted; _ga=GA1.2.345; quire_share_${siteId}=secret-key; quire_visitor_${siteId}=signed.jwt.token` });
    expect(res.status).toBe(200);
    let view: EventItem | undefined;
    for (let tries = 0; !view && tries < 600; tries++) {
      view = (await events('site_view')).find((e) => e.payload.visitor.cookies.consent && e.status === 'success');
      if (!view) await new Promise((r) => setTimeout(r, 50));
    }
    if (!view) throw new Error(`no site_view with the cookies: ${JSON.stringify(await events('site_view'))}`);
    expect(view.payload.visitor.cookies).toEqual({ consent: 'granted', _ga: 'GA1.2.345' });
    const detail = await api('GET', `/v1/integrations/${NAME}/events/${view.id}`);
    const seen = (detail.body.trace.logs as { message: string }[]).map((l) => /^site_view cookies: (.*)$/.exec(l.message)?.[1]).find(Boolean);
    expect(JSON.parse(seen ?? 'null')).toEqual({ consent: 'granted', _ga: 'GA1.2.345' });
  });
});
