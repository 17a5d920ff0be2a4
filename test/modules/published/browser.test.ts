import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoIfEmpty, type DemoData } from '../../../src/app/seed';
import { startTestApp, TEST_ORIGIN, type TestApp } from '../../support/clients';

/**
 * The demo's published sites in a real browser (Debian's Chromium, driven by playwright-core),
 * over real HTTP: the browser resolves the test origin's host to the server this file starts.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available && process.env.QUIRE_REQUIRE_BROWSER) throw new Error(`Chromium is required here (${CHROMIUM}): apt-get install chromium`);
const SCREENSHOTS = join(process.cwd(), 'test-results', 'screenshots');
/** A sign-in page elsewhere: resolved to this file's server too, where the visit shows up as a 404. */
const SIGN_IN_HOST = 'login.example.com';

let t: TestApp;
let demo: DemoData;
let browser: Browser;
let server: { url: string; stop(): Promise<void> };

const api = (method: string, path: string, body?: unknown) => t.rest(method, path, { token: demo.token, body });

async function newPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  return { context, page: await context.newPage() };
}

async function sites() {
  const list = (await api('GET', `/v1/orgs/${demo.organizationId}/sites`)).body.items;
  return { docs: list.find((s: any) => s.title === 'Demo documentation'), preview: list.find((s: any) => s.title === 'Partner preview') };
}

describe.skipIf(!available)('published sites in a browser', () => {
  beforeAll(async () => {
    t = await startTestApp();
    demo = (await seedDemoIfEmpty(t.db))!;
    server = await t.serve();
    const { host } = new URL(TEST_ORIGIN);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', `--host-resolver-rules=MAP ${host} ${new URL(server.url).host}, MAP ${SIGN_IN_HOST} ${new URL(server.url).host}`] });
    mkdirSync(SCREENSHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await t?.close();
  });

  it('opens the demo site, follows the sidebar and the section tabs, in both themes', async () => {
    const { docs } = await sites();
    const { context, page } = await newPage();
    await page.goto(docs.urls.published);
    expect(await page.locator('article h1').first().textContent()).toBe('Welcome');
    await page.screenshot({ path: join(SCREENSHOTS, 'demo-light.png'), fullPage: true });

    await page.locator('aside a', { hasText: 'Configuration' }).click();
    await page.waitForURL(/configuration$/);
    expect(await page.locator('article table th').first().textContent()).toBe('Setting');

    await page.locator('header nav a', { hasText: 'API reference' }).click();
    await page.waitForURL(/api-reference$/);
    expect(await page.locator('article h1').first().textContent()).toBe('Overview');
    await page.locator('.pager a[rel=next]').click();
    expect(await page.locator('article h1').first().textContent()).toBe('Authentication');

    await page.locator('header a.theme').click();
    await page.waitForURL(/theme=dark/);
    expect(await page.locator('html').getAttribute('class')).toBe('dark');
    await page.goto(`${docs.urls.published}?theme=dark`);
    await page.screenshot({ path: join(SCREENSHOTS, 'demo-dark.png'), fullPage: true });
    await context.close();
  });

  it('searches from the header and follows a result', async () => {
    const { docs } = await sites();
    const { context, page } = await newPage();
    await page.goto(docs.urls.published);
    await page.locator('header input[name=q]').fill('revisions');
    await page.locator('header input[name=q]').press('Enter');
    await page.waitForURL(/~search\?q=revisions/);
    expect(await page.locator('.results mark').first().textContent()).toMatch(/revisions/i);
    await page.locator('.results a.result').first().click();
    expect(await page.locator('article h1').first().textContent()).toBe('Welcome');
    await context.close();
  });

  it('meets the share-link gate and passes it with the key, which the browser then remembers', async () => {
    const { preview } = await sites();
    const { context, page } = await newPage();
    const gate = await page.goto(preview.urls.published);
    expect(gate?.status()).toBe(401);
    expect(await page.locator('h1').textContent()).toBe('This site is shared by link');
    const [link] = (await api('GET', `/v1/orgs/${demo.organizationId}/sites/${preview.id}/share-links`)).body.items;
    await page.goto(link.urls.published);
    expect(await page.locator('article h1').first().textContent()).toBe('Overview');
    await page.goto(`${preview.urls.published}/authentication`);
    expect(await page.locator('article h1').first().textContent()).toBe('Authentication');
    await context.close();
  });

  it('sends visitors of a visitor-auth site to sign in, and lets a signed token in but not a forged or expired one', async () => {
    const { docs } = await sites();
    const base = `/v1/orgs/${demo.organizationId}/sites/${docs.id}`;
    await api('PATCH', base, { visibility: 'visitor-auth' });
    await api('PATCH', `${base}/publishing/auth`, { fallbackURL: `http://${SIGN_IN_HOST}/start` });
    const { privateKey } = (await api('GET', `${base}/publishing/auth`)).body;
    const sign = (key: string, exp: number | string) => new SignJWT({ plan: 'pro' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime(exp).sign(new TextEncoder().encode(key));
    const { context, page } = await newPage();
    try {
      await page.goto(docs.urls.published);
      expect(page.url()).toMatch(/^http:\/\/login\.example\.com\/start\?location=/);
      await page.goto(`${docs.urls.published}?jwt_token=${await sign('forged-key', '1h')}`);
      expect(page.url()).toMatch(/login\.example\.com/);
      await page.goto(`${docs.urls.published}?jwt_token=${await sign(privateKey, Math.floor(Date.now() / 1000) - 60)}`);
      expect(page.url()).toMatch(/login\.example\.com/);
      await page.goto(`${docs.urls.published}?jwt_token=${await sign(privateKey, '1h')}`);
      expect(await page.locator('article h1').first().textContent()).toBe('Welcome');
      await page.goto(`${docs.urls.published}/install`);
      expect(await page.locator('article h1').first().textContent()).toBe('Install');
    } finally {
      await context.close();
      await api('PATCH', base, { visibility: 'public' });
    }
  });

  it('shows a conditional section to a visitor whose claims match, and hides it otherwise', async () => {
    const { docs } = await sites();
    const base = `/v1/orgs/${demo.organizationId}/sites/${docs.id}`;
    const sections = (await api('GET', `${base}/sections`)).body.items;
    const apiSection = sections.find((s: any) => s.title === 'API reference');
    await api('PATCH', `${base}/sections/${apiSection.id}`, { condition: 'visitor.claims.plan == "pro"' });
    const { privateKey } = (await api('GET', `${base}/publishing/auth`)).body;
    const token = (plan: string) => new SignJWT({ plan }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(new TextEncoder().encode(privateKey));
    try {
      const { context, page } = await newPage();
      await page.goto(`${docs.urls.published}?jwt_token=${await token('free')}`);
      expect(await page.locator('header nav a').allTextContents()).toEqual(['Guides']);
      await context.close();
      const pro = await newPage();
      await pro.page.goto(`${docs.urls.published}?jwt_token=${await token('pro')}`);
      expect(await pro.page.locator('header nav a').allTextContents()).toEqual(['Guides', 'API reference']);
      await pro.context.close();
    } finally {
      await api('PATCH', `${base}/sections/${apiSection.id}`, { condition: null });
    }
  });
});
