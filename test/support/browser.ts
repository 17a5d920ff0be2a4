import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';

/** Debian's Chromium, or the one QUIRE_CHROMIUM names; CI sets QUIRE_REQUIRE_BROWSER so a missing one fails. */
export const CHROMIUM = process.env.QUIRE_CHROMIUM ?? '/usr/bin/chromium';

/**
 * A fresh tab at a width, recording what a reader's page must never do: console errors and
 * warnings (CSP violations among them), page errors, and every host it asks. `options` adds to
 * the tab's context (a colour scheme, permissions).
 */
export async function openTab(browser: Browser, width: number, options: BrowserContextOptions = {}): Promise<{ context: BrowserContext; page: Page; problems: string[]; hosts: Set<string> }> {
  const context = await browser.newContext({ viewport: { width, height: 800 }, ...options });
  const page = await context.newPage();
  const problems: string[] = [];
  const hosts = new Set<string>();
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  context.on('request', (request) => hosts.add(new URL(request.url()).host));
  return { context, page, problems, hosts };
}
