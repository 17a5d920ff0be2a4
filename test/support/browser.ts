import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';

/** Debian's Chromium, or the one QUIRE_CHROMIUM names; CI sets QUIRE_REQUIRE_BROWSER so a missing one fails. */
export const CHROMIUM = process.env.QUIRE_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Headless Chromium, without its sandbox (CI runs as root, where the sandbox cannot start). `resolve`
 * maps hosts to `host:port`, so pages addressed to the test origin or a made-up host reach the
 * server the test started.
 */
export function launchChromium(resolve: Record<string, string> = {}): Promise<Browser> {
  const rules = Object.entries(resolve).map(([from, to]) => `MAP ${from} ${to}`);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', ...(rules.length ? [`--host-resolver-rules=${rules.join(', ')}`] : [])] });
}

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
