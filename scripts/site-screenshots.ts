/*
 * Screenshots of the demo's published site for the README: `npx tsx scripts/site-screenshots.ts`.
 * Starts the server as `npm start` does, on an embedded PGlite in a fresh directory (so the demo is
 * seeded), opens the demo's Install page in Chromium at a phone, a tablet and a desktop width, in
 * the system's light and dark themes, and writes six viewport-only PNGs to docs/screenshots/.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const CHROMIUM = process.env.QUIRE_CHROMIUM ?? '/usr/bin/chromium';
const OUT = join(process.cwd(), 'docs', 'screenshots');
const SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'tablet', width: 800, height: 1000 },
  { name: 'desktop', width: 1280, height: 800 },
];
const START_TIMEOUT_MS = 300_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function main() {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'quire-screenshots-'));
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { ...process.env, PORT: String(port), QUIRE_DATA_DIR: dataDir, QUIRE_PUBLIC_URL: `http://localhost:${port}`, DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    // The first start prints the demo's published sites: the documentation site is the one shown.
    const site = await new Promise<string>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`the server printed no demo site within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
      server.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
        const found = /Demo documentation: (\S+)/.exec(out);
        if (found) {
          clearTimeout(timer);
          resolve(found[1]!);
        }
      });
      server.once('exit', (code) => reject(new Error(`the server stopped (exit ${code})`)));
    });
    mkdirSync(OUT, { recursive: true });
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    try {
      for (const size of SIZES) {
        for (const scheme of ['light', 'dark'] as const) {
          const context = await browser.newContext({ viewport: { width: size.width, height: size.height }, colorScheme: scheme });
          const page = await context.newPage();
          await page.goto(`${site}/install`, { waitUntil: 'load' });
          const file = join(OUT, `site-${size.name}-${scheme}.png`);
          await page.screenshot({ path: file });
          console.log(`${file} (${Math.round(statSync(file).size / 1024)} KB)`);
          await context.close();
        }
      }
    } finally {
      await browser.close();
    }
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => (server.exitCode === null ? server.once('exit', resolve) : resolve(null)));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
