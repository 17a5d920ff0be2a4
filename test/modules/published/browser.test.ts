import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoIfEmpty, type DemoData } from '../../../src/app/seed';
import { CHROMIUM, openTab, launchChromium } from '../../support/browser';
import { startTestApp, TEST_ORIGIN, type TestApp } from '../../support/clients';

/**
 * The demo's published sites in a real browser (Debian's Chromium, driven by playwright-core),
 * over real HTTP: the browser resolves the test origin's host to the server this file starts.
 */
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
    browser = await launchChromium({ [host]: new URL(server.url).host, [SIGN_IN_HOST]: new URL(server.url).host });
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

    await page.locator('nav.pages-list a', { hasText: 'Configuration' }).click();
    await page.waitForURL(/configuration$/);
    expect(await page.locator('article table th').first().textContent()).toBe('Setting');

    await page.locator('header nav a', { hasText: 'API reference' }).click();
    await page.waitForURL(/api-reference$/);
    expect(await page.locator('article h1').first().textContent()).toBe('Overview');
    await page.locator('.pager a[rel=next]').click();
    expect(await page.locator('article h1').first().textContent()).toBe('Authentication');

    await page.locator('header .theme a', { hasText: 'Dark' }).click();
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

  /** The boxes of what a reader sees, and whether the page scrolls sideways. */
  const boxes = (page: Page) =>
    page.evaluate(() => {
      const box = (selector: string) => {
        const el = document.querySelector(selector);
        // Inside a closed <details> an element still has a box when asked: only what is rendered counts.
        const r = el?.checkVisibility() ? el.getBoundingClientRect() : null;
        return r && r.width > 0 && r.height > 0 ? { x: Math.round(r.x), y: Math.round(r.y), width: Math.round(r.width) } : null;
      };
      return { article: box('article')!, sidebarLink: box('nav.pages-list a'), outline: box('.outline aside a'), outlineTitle: box('.outline summary'), menu: box('.pages summary'), sideways: document.documentElement.scrollWidth > window.innerWidth };
    });

  it('fits a phone, a tablet and a desktop: a wide text column, the sidebar behind a menu on phones, the outline above the text below 1024 px', async () => {
    const { docs } = await sites();
    const seen: Record<number, Awaited<ReturnType<typeof boxes>>> = {};
    for (const width of [390, 800, 1280]) {
      const { context, page, problems } = await openTab(browser, width);
      await page.goto(`${docs.urls.published}/install`);
      seen[width] = await boxes(page);
      expect(seen[width].sideways, `${width} px scrolls sideways`).toBe(false);
      if (width === 390) {
        expect(seen[width].sidebarLink).toBeNull();
        expect(seen[width].outline).toBeNull();
        await page.locator('.pages summary', { hasText: 'Menu' }).click();
        await page.locator('nav.pages-list a', { hasText: 'Configuration' }).click();
        await page.waitForURL(/configuration$/);
        expect(await page.locator('article table th').first().textContent()).toBe('Setting');
        expect((await boxes(page)).sideways, 'the wide table scrolls inside itself').toBe(false);
        await page.goBack();
        await page.locator('.outline summary').click();
        await page.locator('.outline aside a', { hasText: 'Start' }).click();
        await page.waitForURL(/#start$/);
      }
      expect(problems).toEqual([]);
      await context.close();
    }
    const [phone, tablet, desktop] = [seen[390]!, seen[800]!, seen[1280]!];
    expect(phone.article.width).toBeGreaterThanOrEqual(340);
    expect(phone.menu).not.toBeNull();
    expect(tablet.menu).toBeNull();
    expect(tablet.sidebarLink!.x).toBeLessThan(tablet.article.x);
    expect(tablet.article.width).toBeGreaterThanOrEqual(450);
    // The tablet has no outline column: "On this page" sits folded above the text, in its column.
    expect(tablet.outline).toBeNull();
    expect([tablet.outlineTitle!.y < tablet.article.y, tablet.outlineTitle!.x >= tablet.article.x]).toEqual([true, true]);
    expect(desktop.outline!.x).toBeGreaterThan(desktop.article.x + desktop.article.width);
    expect(desktop.article.width).toBeGreaterThanOrEqual(600);
  });

  it("follows the system's dark theme, and keeps the reader's light choice on the next page, the search page and a missing page", async () => {
    const { docs } = await sites();
    const { context, page, problems } = await openTab(browser, 1280, { colorScheme: 'dark' });
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.goto(docs.urls.published);
    expect(await background()).toBe('rgb(18, 19, 22)');
    await page.locator('header .theme a', { hasText: 'Light' }).click();
    await page.waitForURL(/theme=light/);
    expect(await background()).toBe('rgb(255, 255, 255)');
    await page.locator('nav.pages-list a', { hasText: 'Install' }).click();
    await page.waitForURL(/install$/);
    expect(await background()).toBe('rgb(255, 255, 255)');
    await page.locator('header input[name=q]').fill('revisions');
    await page.locator('header input[name=q]').press('Enter');
    await page.waitForURL(/~search\?q=revisions/);
    expect(await background()).toBe('rgb(255, 255, 255)');
    const missing = await page.goto(`${docs.urls.published}/no-such-page`);
    expect(missing?.status()).toBe(404);
    expect([await background(), await page.locator('article h1').textContent(), await page.locator('header nav a').first().textContent()]).toEqual(['rgb(255, 255, 255)', 'Page not found', 'Guides']);
    await page.locator('header .theme a', { hasText: 'Auto' }).click();
    expect(await background()).toBe('rgb(18, 19, 22)');
    // The one complaint is the 404 itself, which Chromium logs for the missing page.
    expect(problems).toEqual(['Failed to load resource: the server responded with a status of 404 ()']);
    await context.close();
  });

  it('copies a code block with its button, focuses the search box with / and Ctrl-K, and shows hints as callouts', async () => {
    const { docs } = await sites();
    const { context, page, problems } = await openTab(browser, 1280);
    await page.goto(`${docs.urls.published}/install`);
    expect(await page.locator('article h1').count()).toBe(1);
    expect(await page.locator('.hint.hint-info').textContent()).toContain('The first start creates this demo.');
    await page.locator('article pre').hover();
    await page.locator('article pre .copy').click();
    expect(await page.locator('article pre .copy').textContent()).toBe('Copied');
    const search = page.locator('header input[name=q]');
    await page.locator('article p').first().click();
    await page.keyboard.press('/');
    expect(await search.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Control+V');
    expect(await search.inputValue()).toBe('npm install && npm start');
    await page.locator('article p').first().click();
    await page.keyboard.press('Control+K');
    expect(await search.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await page.locator('.updated time').getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("opens a section group's menu from its tab and follows one of its sections", async () => {
    // A site of its own, so the demo's tabs stay as the tests above expect them.
    const { items: spaces } = (await api('GET', `/v1/orgs/${demo.organizationId}/spaces`)).body;
    const guide = spaces.find((s: any) => s.title === 'Getting started');
    const reference = spaces.find((s: any) => s.title === 'API reference');
    const site = (await api('POST', `/v1/orgs/${demo.organizationId}/sites`, { title: 'Grouped' })).body;
    const base = `/v1/orgs/${demo.organizationId}/sites/${site.id}`;
    const first = (await api('POST', `${base}/sections`, { spaceId: guide.id, title: 'Guides' })).body;
    const second = (await api('POST', `${base}/sections`, { spaceId: reference.id, title: 'Reference' })).body;
    expect((await api('POST', `${base}/section-groups`, { title: 'Developers', sections: [first.id, second.id] })).status).toBe(201);
    await api('POST', `${base}/publish`);
    const url = (await api('GET', base)).body.urls.published;
    const { context, page, problems } = await openTab(browser, 390);
    await page.goto(url);
    const menu = page.locator('.tabmenu a', { hasText: 'Reference' });
    expect(await menu.isVisible()).toBe(false);
    await page.locator('.tabgroup summary', { hasText: 'Developers' }).click();
    await menu.click();
    await page.waitForURL(/reference$/);
    expect(await page.locator('article h1').first().textContent()).toBe('Overview');
    expect(await page.locator('.tabgroup summary.active').textContent()).toBe('Developers');
    // The menu closes on a click elsewhere (the reader's script).
    await page.locator('.tabgroup summary').click();
    await page.locator('article h1').click();
    expect(await page.locator('.tabgroup[open]').count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });
});
