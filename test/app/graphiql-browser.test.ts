import { existsSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM, launchChromium } from '../support/browser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOrganization, type OrgFixture } from '../support/factories';
import { startTestApp, type TestApp } from '../support/clients';

/** Debian's package; `.ci/run` installs it and sets QUIRE_REQUIRE_BROWSER so that CI never skips this. */
const available = existsSync(CHROMIUM);
const required = !!process.env.QUIRE_REQUIRE_BROWSER;
if (!available && !required) console.warn(`Skipping the GraphiQL browser test: no Chromium at ${CHROMIUM} (apt-get install -y chromium)`);

describe.skipIf(!available && !required)('GraphiQL in a browser', () => {
  let t: TestApp;
  let acme: OrgFixture;
  let server: { url: string; stop(): Promise<void> };
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];
  const hosts = new Set<string>();

  beforeAll(async () => {
    if (!available) throw new Error(`QUIRE_REQUIRE_BROWSER is set but there is no Chromium at ${CHROMIUM}`);
    t = await startTestApp();
    acme = await buildOrganization(t.db, 'Browser');
    server = await t.serve();
    // --no-sandbox: CI runs as root, where Chromium's sandbox cannot start.
    browser = await launchChromium();
    page = await browser.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('request', (request) => hosts.add(new URL(request.url()).host));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await t?.close();
  });

  it('loads the schema on first open: the docs explorer shows Query', async () => {
    await page.goto(`${server.url}/graphql`);
    await page.getByLabel('Show Documentation Explorer').click();
    const docs = page.locator('.graphiql-doc-explorer');
    await expect.poll(() => docs.textContent(), { timeout: 30_000 }).toContain('Query');
    expect(problems.filter((p) => /Content Security Policy|Refused/.test(p))).toEqual([]);
  }, 60_000);

  it('runs the example query once a token is pasted in the headers editor', async () => {
    await page.getByText('Headers', { exact: true }).click();
    const headers = page.locator('.graphiql-editor-tool .graphiql-editor').last();
    await headers.click();
    await page.keyboard.press('ControlOrMeta+A');
    // A paste, as a person does it: typed text would get the editor's auto-closed quotes and braces.
    await page.evaluate((text) => {
      const data = new DataTransfer();
      data.setData('text/plain', text);
      document.activeElement!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, JSON.stringify({ Authorization: `Bearer ${acme.admin.token}` }));
    await page.locator('.graphiql-execute-button').click();
    const result = page.locator('.result-window');
    // The editor renders spaces as no-break spaces.
    const text = async () => (await result.textContent())?.replace(/\s/g, ' ');
    await expect.poll(text, { timeout: 30_000 }).toContain('"displayName": "Admin of Browser"');
    expect(await text()).toContain('"title": "Browser"');
    // Its own policy let everything it needs run, and it needed no other host.
    expect(problems.filter((p) => /Content Security Policy|Refused/i.test(p))).toEqual([]);
    expect([...hosts]).toEqual([new URL(server.url).host]);
  }, 60_000);
});
