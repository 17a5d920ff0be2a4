import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoIfEmpty, type DemoData } from '../../../src/app/seed';
import { axTree, type AxNode } from '../../support/ax-tree';
import { CHROMIUM, openTab, launchChromium } from '../../support/browser';
import { startTestApp, TEST_ORIGIN, type TestApp } from '../../support/clients';

/**
 * A published page as a screen reader gets it: Chromium's accessibility tree (not the HTML) must
 * name the landmarks (the header, the sections' and the pages' navigation, the main content, the
 * outline as a complementary region), mark the page being read as current, name the folds, the
 * theme switch and the search box, and start with a link that skips to the content.
 */
const available = existsSync(CHROMIUM);
if (!available && process.env.QUIRE_REQUIRE_BROWSER) throw new Error(`Chromium is required here (${CHROMIUM}): apt-get install chromium`);

let t: TestApp;
let demo: DemoData;
let browser: Browser;
let server: { url: string; stop(): Promise<void> };

const has = (tree: AxNode[], role: string, name?: string) => tree.some((n) => n.role === role && (name === undefined || n.name === name));

async function docsUrl(): Promise<string> {
  const list = (await t.rest('GET', `/v1/orgs/${demo.organizationId}/sites`, { token: demo.token })).body.items;
  return list.find((s: { title: string }) => s.title === 'Demo documentation').urls.published;
}

describe.skipIf(!available)('published pages in the accessibility tree', () => {
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

  it('names the landmarks, the current page, the theme switch and the search box on a desktop', async () => {
    const { context, page, problems } = await openTab(browser, 1280);
    await page.goto(`${await docsUrl()}/install`);
    const tree = await axTree(page);
    expect({
      banner: has(tree, 'banner'),
      sections: has(tree, 'navigation', 'Sections'),
      pages: has(tree, 'navigation', 'Pages'),
      main: has(tree, 'main'),
      outline: has(tree, 'complementary', 'On this page'),
      search: has(tree, 'search'),
      searchBox: has(tree, 'searchbox', 'Search'),
      theme: has(tree, 'group', 'Theme'),
      themeChoices: tree.filter((n) => n.role === 'link' && ['Light', 'Dark', 'Auto'].includes(n.name)).map((n) => n.name),
    }).toEqual({ banner: true, sections: true, pages: true, main: true, outline: true, search: true, searchBox: true, theme: true, themeChoices: ['Light', 'Dark', 'Auto'] });
    // The page being read, and only it, is current among the pages' links.
    expect(tree.filter((n) => n.role === 'link' && n.current === 'page' && n.name === 'Install')).toHaveLength(1);
    expect(tree.find((n) => n.role === 'link')?.name).toBe('Skip to content');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('names the Menu and "On this page" folds on a phone, and shows what they hold once opened', async () => {
    const { context, page, problems } = await openTab(browser, 390);
    await page.goto(`${await docsUrl()}/install`);
    const folded = await axTree(page);
    const folds = folded.filter((n) => n.role === 'DisclosureTriangle').map((n) => [n.name, n.properties.expanded]);
    expect(folds).toEqual(expect.arrayContaining([['Menu', false], ['On this page', false]]));
    expect(has(folded, 'navigation', 'Pages')).toBe(false);
    await page.locator('.pages summary').click();
    await page.locator('.outline summary').click();
    const open = await axTree(page);
    expect([has(open, 'navigation', 'Pages'), has(open, 'complementary', 'On this page')]).toEqual([true, true]);
    expect(open.filter((n) => n.role === 'DisclosureTriangle' && ['Menu', 'On this page'].includes(n.name)).map((n) => n.properties.expanded)).toEqual([true, true]);
    expect(open.some((n) => n.role === 'link' && n.current === 'page' && n.name === 'Install')).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('moves the keyboard from the skip link to the content', async () => {
    const { context, page, problems } = await openTab(browser, 1280);
    await page.goto(`${await docsUrl()}/install`);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => [document.activeElement?.textContent, (document.activeElement?.getBoundingClientRect().top ?? -1) >= 0])).toEqual(['Skip to content', true]);
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => [document.activeElement?.id, location.hash])).toEqual(['content', '#content']);
    expect(problems).toEqual([]);
    await context.close();
  });
});
