import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_ORIGIN, type TestApp } from '../support/clients';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const open = (app: TestApp['app'], path = '/graphql', headers: Record<string, string> = {}) =>
  app.fetch(new Request(`${TEST_ORIGIN}${path}`, { headers: { accept: 'text/html', ...headers } }));
const assetsOf = (html: string) => [...html.matchAll(/(?:src|href)="(\/graphql\/assets\/[^"]+)"/g)].map((m) => m[1]);

describe('GraphiQL', () => {
  it('is a small page with no inline script, its options and no token in it', async () => {
    const res = await open(t.app);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain("frame-ancestors 'none'");
    const html = await res.text();
    expect(html.length).toBeLessThan(10_000);
    // Every script is a file or JSON data: the CSP allows no inline code.
    expect([...html.matchAll(/<script(?![^>]*\bsrc=)(?![^>]*type="application\/json")/g)]).toHaveLength(0);
    const options = JSON.parse(html.match(/<script type="application\/json" id="graphiql-options">(.*?)<\/script>/s)![1]);
    expect(options.graphiql.headers).toBe('{}');
    expect(options.graphiql.defaultQuery).toContain('"Authorization": "Bearer <your token>"');
    expect(options.graphiql.defaultQuery).toContain('viewer {');
    expect(assetsOf(html)).toHaveLength(5);
  });

  it('serves its assets compressed, cacheable for a year, and 304 on revalidation', async () => {
    const html = await (await open(t.app)).text();
    const script = assetsOf(html).find((path) => /\/graphiql\.[0-9a-f]+\.js$/.test(path))!;
    const res = await t.app.fetch(new Request(`${TEST_ORIGIN}${script}`, { headers: { 'accept-encoding': 'br, gzip' } }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-encoding')).toBe('br');
    const compressed = Buffer.from(await res.arrayBuffer());
    const plain = brotliDecompressSync(compressed);
    expect(plain.toString()).toContain('renderYogaGraphiQL');
    expect(compressed.length).toBeLessThan(plain.length / 3);
    const again = await t.app.fetch(new Request(`${TEST_ORIGIN}${script}`, { headers: { 'if-none-match': res.headers.get('etag')! } }));
    expect(again.status).toBe(304);
    expect(await t.app.fetch(new Request(`${TEST_ORIGIN}/graphql/assets/graphiql.0000000000000000.js`)).then((r) => r.status)).toBe(404);
  });

  it('is not served when the setting turns it off', async () => {
    const off = await startTestApp({ http: { graphiql: false } });
    try {
      const res = await open(off.app);
      expect(res.headers.get('content-type') ?? '').not.toMatch(/html/);
      const html = await (await open(t.app)).text();
      expect((await off.app.fetch(new Request(`${TEST_ORIGIN}${assetsOf(html)[0]}`))).status).toBe(404);
    } finally {
      await off.close();
    }
  });
});
