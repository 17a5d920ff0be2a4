import { existsSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, openTab, launchChromium } from '../support/browser';
import { startTestApp, TEST_ORIGIN, type TestApp } from '../support/clients';
import { send } from '../support/doors';
import { buildOrganization, type OrgFixture } from '../support/factories';
import { encodeResponse, makeIdp, signedResponse } from '../support/saml-idp';

/**
 * The page `urls.app` links open, in Chromium at a phone's and a desktop's width, over real HTTP:
 * the browser resolves the test origin's host (the links' host) to the server this file starts.
 */
const available = existsSync(CHROMIUM);
const required = !!process.env.QUIRE_REQUIRE_BROWSER;
if (!available && !required) console.warn(`Skipping the app page browser test: no Chromium at ${CHROMIUM} (apt-get install -y chromium)`);

const NOT_FOUND = 'Not found, or you cannot see it.';
const WIDTHS = [390, 1280];

describe.skipIf(!available && !required)('the app page in a browser', () => {
  let t: TestApp;
  let acme: OrgFixture;
  let other: OrgFixture;
  let server: { url: string; stop(): Promise<void> };
  let browser: Browser;
  let space: { id: string; title: string; urls: { app: string } };
  let otherSpace: { id: string; urls: { app: string } };

  beforeAll(async () => {
    if (!available) throw new Error(`QUIRE_REQUIRE_BROWSER is set but there is no Chromium at ${CHROMIUM}`);
    t = await startTestApp();
    acme = await buildOrganization(t.db, 'Acme');
    other = await buildOrganization(t.db, 'Other');
    space = await send(t, acme.admin.token, 'POST', `/v1/orgs/${acme.organizationId}/spaces`, { title: 'Field <b>guide</b> & notes' });
    otherSpace = await send(t, other.admin.token, 'POST', `/v1/orgs/${other.organizationId}/spaces`, { title: 'Elsewhere' });
    server = await t.serve();
    const { host } = new URL(TEST_ORIGIN);
    // --no-sandbox: CI runs as root, where Chromium's sandbox cannot start.
    browser = await launchChromium({ [host]: new URL(server.url).host });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await t?.close();
  });

  const open = (width: number) => openTab(browser, width);

  const heading = (page: Page) => page.locator('main h1').first();
  const overflows = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

  for (const width of WIDTHS) {
    it(`at ${width} px: the token in the fragment opens the space and leaves the address bar`, async () => {
      const { context, page, problems, hosts } = await open(width);
      await page.goto(`${space.urls.app}#token=${acme.admin.token}&organization=${acme.organizationId}`);
      await expect.poll(() => heading(page).textContent(), { timeout: 15_000 }).toBe(space.title);
      expect(page.url()).toBe(space.urls.app);
      expect(await page.evaluate(() => sessionStorage.getItem('quire.token'))).toBe(acme.admin.token);
      // The title is text: the markup in it is not rendered.
      expect(await page.locator('main b').count()).toBe(0);
      expect(await page.locator('#who').textContent()).toContain('Admin of Acme');
      expect(await page.locator('main a', { hasText: acme.organizationId }).getAttribute('href')).toBe(`${TEST_ORIGIN}/o/${acme.organizationId}/`);
      const graphiql = await page.locator('main a', { hasText: 'Open in GraphiQL' }).getAttribute('href');
      expect(new URL(graphiql!, TEST_ORIGIN).searchParams.get('query')).toContain(acme.organizationId);
      expect(await overflows(page)).toBe(false);
      expect(problems).toEqual([]);
      expect([...hosts]).toEqual([new URL(TEST_ORIGIN).host]);
      await context.close();
    }, 60_000);

    it(`at ${width} px: another organization's space reads exactly like a missing one`, async () => {
      const { context, page, problems, hosts } = await open(width);
      await page.goto(`${space.urls.app}#token=${acme.admin.token}`);
      await expect.poll(() => heading(page).textContent(), { timeout: 15_000 }).toBe(space.title);
      const shown = async (url: string, id: string) => {
        await page.goto(url);
        await expect.poll(() => heading(page).textContent(), { timeout: 15_000 }).toBe(NOT_FOUND);
        return (await page.locator('main').innerText()).replaceAll(id, 'ID');
      };
      const foreign = await shown(otherSpace.urls.app, otherSpace.id);
      const sameIdElsewhere = await shown(`${TEST_ORIGIN}/o/${acme.organizationId}/s/${otherSpace.id}`, otherSpace.id);
      const missing = await shown(`${TEST_ORIGIN}/o/${acme.organizationId}/s/nosuchspace`, 'nosuchspace');
      expect(sameIdElsewhere).toBe(missing);
      expect(foreign.replaceAll(other.organizationId, acme.organizationId)).toBe(missing);
      expect(await overflows(page)).toBe(false);
      // The browser reports the API's 404 itself; nothing else may show up.
      expect(problems.filter((p) => !/status of 404/.test(p))).toEqual([]);
      expect([...hosts]).toEqual([new URL(TEST_ORIGIN).host]);
      await context.close();
    }, 60_000);
  }

  it('without a token: says what the link is, and a pasted token opens it', async () => {
    const { context, page, problems } = await open(390);
    await page.goto(space.urls.app);
    await expect.poll(() => page.locator('main').textContent(), { timeout: 15_000 }).toContain(`This link opens space ${space.id}`);
    await page.locator('#token').fill(acme.admin.token);
    await page.getByRole('button', { name: 'Open' }).click();
    await expect.poll(() => heading(page).textContent(), { timeout: 15_000 }).toBe(space.title);
    await page.getByRole('button', { name: 'Forget token' }).click();
    expect(await page.evaluate(() => sessionStorage.getItem('quire.token'))).toBeNull();
    await page.goto(`${space.urls.app}#token=not-a-token`);
    await expect.poll(() => page.locator('main').textContent(), { timeout: 15_000 }).toContain('That token was refused');
    expect(problems.filter((p) => !/status of 401/.test(p))).toEqual([]);
    await context.close();
  }, 60_000);

  it('a SAML sign-in lands on the page it was started from, signed in', async () => {
    const idp = await makeIdp();
    const provider = await send(t, acme.admin.token, 'POST', `/v1/orgs/${acme.organizationId}/saml`, { label: 'Okta', entityID: idp.entityId, ssoURL: idp.ssoUrl, certificate: idp.certificate, defaultRole: 'read' });
    const next = new URL(space.urls.app).pathname;
    const xml = signedResponse(idp, { acsUrl: provider.service.acsURL, audience: provider.service.entityID, email: 'sso.reader@acme.test', name: 'Sam Single' });
    const acs = await t.app.fetch(
      new Request(provider.service.acsURL, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ SAMLResponse: encodeResponse(xml), RelayState: next }).toString() }),
    );
    expect(acs.status).toBe(303);
    const location = acs.headers.get('location')!;
    expect(location.startsWith(`${space.urls.app}#token=`)).toBe(true);
    const { context, page, problems } = await open(1280);
    const landing = await page.goto(location);
    expect(landing?.status()).toBe(200);
    await expect.poll(() => heading(page).textContent(), { timeout: 15_000 }).toBe(space.title);
    expect(page.url()).toBe(space.urls.app);
    expect(await page.locator('#who').textContent()).toContain('Sam Single');
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);
});
