import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoIfEmpty, type DemoData } from '../../../src/app/seed';
import { CHROMIUM, openTab, launchChromium } from '../../support/browser';
import { startTestApp, TEST_ORIGIN, type TestApp } from '../../support/clients';

/**
 * The 404 pages of published sites in Chromium, on a phone (390 px) and a desktop (1280 px): a
 * missing site's page fits without scrolling sideways and runs no script; a site with nothing to
 * show at an address keeps its header and leads back to its root.
 */
const available = existsSync(CHROMIUM);
if (!available && process.env.QUIRE_REQUIRE_BROWSER) throw new Error(`Chromium is required here (${CHROMIUM}): apt-get install chromium`);
/** Chromium's one complaint on a 404: the status of the page itself. */
const THE_404 = 'Failed to load resource: the server responded with a status of 404 ()';

let t: TestApp;
let demo: DemoData;
let browser: Browser;
let server: { url: string; stop(): Promise<void> };

const api = (method: string, path: string, body?: unknown) => t.rest(method, path, { token: demo.token, body });

describe.skipIf(!available)('published 404 pages in a browser', () => {
  beforeAll(async () => {
    t = await startTestApp();
    demo = (await seedDemoIfEmpty(t.db))!;
    server = await t.serve();
    browser = await launchChromium({ [new URL(TEST_ORIGIN).host]: new URL(server.url).host });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await t?.close();
  });

  for (const width of [390, 1280]) {
    it(`shows a missing site's page at ${width} px: centred, no sideways scroll, no script`, async () => {
      const { context, page, problems } = await openTab(browser, width);
      const answer = await page.goto(`${TEST_ORIGIN}/sites/${demo.organizationId}/no-such-site/some/page`);
      expect(answer?.status()).toBe(404);
      const seen = await page.evaluate(() => {
        const box = document.querySelector('main')!.getBoundingClientRect();
        return {
          title: document.querySelector('h1')?.textContent,
          sideways: document.documentElement.scrollWidth > window.innerWidth,
          scripts: document.scripts.length,
          inside: box.left >= 0 && box.right <= window.innerWidth,
          centred: Math.abs(box.left - (window.innerWidth - box.right)) <= 2,
          font: parseFloat(getComputedStyle(document.body).fontSize),
        };
      });
      expect(seen).toEqual({ title: 'Site not found', sideways: false, scripts: 0, inside: true, centred: true, font: 16 });
      expect(problems).toEqual([THE_404]);
      await context.close();
    });

    it(`shows a site with no page yet in its own look at ${width} px, and leads back to its root`, async () => {
      const space = (await api('POST', `/v1/orgs/${demo.organizationId}/spaces`, { title: `Empty ${width}` })).body;
      const site = (await api('POST', `/v1/orgs/${demo.organizationId}/sites`, { title: `Notes ${width}`, visibility: 'public', spaces: [space.id] })).body;
      expect((await api('POST', `/v1/orgs/${demo.organizationId}/sites/${site.id}/publish`)).status).toBe(200);
      const url = (await api('GET', `/v1/orgs/${demo.organizationId}/sites/${site.id}`)).body.urls.published as string;
      const { context, page, problems } = await openTab(browser, width);
      const answer = await page.goto(`${url}/missing/section`);
      expect(answer?.status()).toBe(404);
      expect(await page.locator('header a.home').textContent()).toBe(`Notes ${width}`);
      expect(await page.locator('article h1').textContent()).toBe('Page not found');
      expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
      await page.locator('article a', { hasText: 'Go to the home page' }).click();
      await page.waitForURL(url);
      expect(await page.locator('article h1').textContent()).toBe('Page not found');
      // Both visits are 404s; nothing else (no refused script, no error).
      expect(problems).toEqual([THE_404, THE_404]);
      await context.close();
    });
  }
});
