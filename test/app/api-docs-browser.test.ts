import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, openTab, launchChromium } from '../support/browser';
import { startTestApp, type TestApp } from '../support/clients';
import { buildOrganization, type OrgFixture } from '../support/factories';

/**
 * The REST reference (`/v1/docs`) in Chromium at a phone's and a desktop's width, over real HTTP:
 * it renders under its own Content-Security-Policy and asks nothing of any other host. Opened at
 * `localhost`, where Scalar shows the most (its developer tools appear only there by default).
 */
const available = existsSync(CHROMIUM);
const required = !!process.env.QUIRE_REQUIRE_BROWSER;
if (!available && !required) console.warn(`Skipping the API reference browser test: no Chromium at ${CHROMIUM} (apt-get install -y chromium)`);

const WIDTHS = [390, 1280];
/** Scalar's controls that need its hosted services, by the labels it gives them. */
const ONLINE_CONTROLS = [/Ask AI/i, /MCP/, /^VS Code$/, /^Cursor$/, /Developer Tools/i, /^Configure$/, /^Share$/, /^Deploy$/, /Open API Client/i, /Open in client/i];

describe.skipIf(!available && !required)('the API reference in a browser', () => {
  let t: TestApp;
  let acme: OrgFixture;
  let server: { url: string; stop(): Promise<void> };
  let base: string;
  let browser: Browser;

  beforeAll(async () => {
    if (!available) throw new Error(`QUIRE_REQUIRE_BROWSER is set but there is no Chromium at ${CHROMIUM}`);
    t = await startTestApp();
    acme = await buildOrganization(t.db, 'Reference');
    server = await t.serve();
    base = server.url.replace('127.0.0.1', 'localhost');
    // --no-sandbox: CI runs as root, where Chromium's sandbox cannot start.
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await t?.close();
  });

  const open = (width: number) => openTab(browser, width);

  for (const width of WIDTHS) {
    it(`at ${width} px: shows the operations, under its own policy, asking no other host`, async () => {
      const { context, page, problems, hosts } = await open(width);
      const response = await page.goto(`${base}/v1/docs`);
      expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
      // The first operation of the document, rendered from /v1/openapi.json.
      const operation = page.getByRole('heading', { name: 'Get profile of authenticated user' });
      await expect.poll(() => operation.filter({ visible: true }).count(), { timeout: 30_000 }).toBe(1);
      expect(await page.getByText('curl http').filter({ visible: true }).first().textContent()).toContain(`${base}/v1/user`);
      // Let late requests (fonts, telemetry, the agent) show up before counting hosts.
      await page.waitForTimeout(3000);
      for (const label of ONLINE_CONTROLS) {
        const visible = await page.getByRole('button', { name: label }).or(page.getByRole('link', { name: label })).filter({ visible: true }).count();
        expect(visible, String(label)).toBe(0);
      }
      expect(problems.filter((p) => /Content Security Policy|Refused/i.test(p))).toEqual([]);
      expect(problems).toEqual([]);
      expect([...hosts]).toEqual([new URL(base).host]);
      await context.close();
    }, 60_000);
  }

  it('links to one operation: the sidebar sets the address, and that address opens it', async () => {
    const { context, page, problems } = await open(1280);
    await page.goto(`${base}/v1/docs`);
    await page.getByRole('button', { name: 'Get a user by its ID' }).or(page.getByRole('link', { name: 'Get a user by its ID' })).first().click({ timeout: 30_000 });
    await expect.poll(() => decodeURIComponent(new URL(page.url()).hash), { timeout: 10_000 }).toBe('#tag/users/GET/users/{userId}');
    await context.close();
    const fresh = await open(1280);
    await fresh.page.goto(`${base}/v1/docs#tag/spaces/GET/spaces/{spaceId}`);
    const heading = fresh.page.getByRole('heading', { name: 'Get a space by its ID' }).filter({ visible: true });
    await expect.poll(() => heading.count(), { timeout: 30_000 }).toBe(1);
    // Scrolled to it: its heading sits in the top half of the window.
    await expect.poll(() => heading.evaluate((e) => Math.round(e.getBoundingClientRect().top)), { timeout: 10_000 }).toBeLessThan(400);
    expect([...problems, ...fresh.problems]).toEqual([]);
    await fresh.context.close();
  }, 90_000);

  it('"Test Request" calls this server with the pasted token, and shows its answer', async () => {
    const { context, page, problems, hosts } = await open(1280);
    await page.goto(`${base}/v1/docs`);
    await page.getByRole('button', { name: 'Test Request (get /user)' }).click({ timeout: 30_000 });
    const send = page.getByRole('button', { name: /^Send get request to/ });
    await send.waitFor({ timeout: 10_000 });
    expect(await send.getAttribute('aria-label') ?? await send.innerText()).toContain(`${base}/v1/user`);
    // The client opens as a dialog over the page, which has a token field of its own: use the dialog's.
    const token = page.getByRole('dialog', { name: 'API Client' }).getByRole('textbox', { name: 'Bearer Token' });
    await token.click();
    await page.keyboard.insertText(acme.admin.token);
    await send.click();
    await expect.poll(() => page.locator('body').innerText(), { timeout: 15_000 }).toContain('Admin of Reference');
    expect(problems).toEqual([]);
    expect([...hosts]).toEqual([new URL(base).host]);
    await context.close();
  }, 90_000);
});
