/**
 * Documents users hand over to be converted, nested too deep to walk: HTML imported into a space
 * (a page, a site, a zip entry, a Word document through its HTML) and OpenAPI specifications
 * (JSON or YAML). Each used to be walked recursively as it came: 10,000 nested <div>s held the
 * event loop for seconds and then overflowed the stack (100,000 for a minute), and a 1 MB spec of
 * branches nested a few hundred deep took 5 s to process. Both are now measured in one pass over
 * their text first, and refused past a named limit: an import with a 400 and nothing written, a
 * spec with PARSE_ERROR. The server keeps answering meanwhile.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_HTML_DEPTH } from '../../src/lib/html-depth';
import { MAX_SPEC_DEPTH } from '../../src/modules/openapi/processing';
import { startTestApp, TEST_ORIGIN, type TestApp } from '../support/clients';
import { gid } from '../support/doors';
import { buildOrganization, type OrgFixture } from '../support/factories';

let t: TestApp;
let acme: OrgFixture;
let server: Server;
let origin: string;

/** Generous: the refusals take milliseconds; the bug took seconds to a minute. */
const QUICK_MS = 5_000;

const divs = (levels: number, inner = 'deep') => '<div>'.repeat(levels) + inner + '</div>'.repeat(levels);
const page = (title: string, body: string) => `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;

const xml = (text: string) => new TextEncoder().encode(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>${text}`);
/** A Word document whose body is `body` (WordprocessingML). */
const docx = (body: string) =>
  Buffer.from(
    zipSync({
      '[Content_Types].xml': xml('<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>'),
      '_rels/.rels': xml('<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>'),
      'word/document.xml': xml(`<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`),
    }),
  );
const paragraph = (text: string) => `<w:p><w:r><w:t>${text}</w:t></w:r></w:p>`;
/** Tables nested in table cells: each level is a table, a row and a cell in the HTML. */
const nestedTables = (levels: number): string => (levels === 0 ? paragraph('innermost') : `<w:tbl><w:tr><w:tc>${nestedTables(levels - 1)}</w:tc></w:tr></w:tbl>`);

const NORMAL = page(
  'Normal',
  `<main><section><article><div class="a"><div class="b"><div class="c"><ul><li>One<ul><li>Two<ul><li><p>Three <a href="https://example.com/x"><strong><em>deep</em></strong></a></p></li></ul></li></ul></li></ul>` +
    `<table><tr><td>cell<td>cell</table><blockquote><blockquote><p>quoted</blockquote></blockquote><p>open paragraph<p>another<dl><dt>term<dd>definition</dl>` +
    `<svg><g><g><rect/></g></g></svg><script>if (a < b) document.write("<div><div><div>")</script><!-- <div><div> --></div></div></div></article></section></main>`,
);

const documents: Record<string, { type: string; body: string | Buffer }> = {
  '/deep-10k.html': { type: 'text/html', body: page('Deep', divs(10_000)) },
  '/deep-100k.html': { type: 'text/html', body: page('Deeper', divs(100_000)) },
  // Stray end tags that close nothing: a counter that trusted them would see depth 1.
  '/stray-ends.html': { type: 'text/html', body: page('Stray', '<div></span>'.repeat(10_000)) },
  // HTML has no self-closing <div/>: each opens a <div> that stays open.
  '/self-closing.html': { type: 'text/html', body: page('Slash', '<div/>'.repeat(10_000)) },
  // The innermost <h1> is the last level.
  '/at-limit.html': { type: 'text/html', body: divs(MAX_HTML_DEPTH - 1, '<h1>At the limit</h1>') },
  '/over-limit.html': { type: 'text/html', body: divs(MAX_HTML_DEPTH, '<h1>Over the limit</h1>') },
  '/normal.html': { type: 'text/html', body: NORMAL },
  // A frameset for a body: turndown finds nothing to convert and fails.
  '/frameset.html': { type: 'text/html', body: '<frameset><frame src="a.html"></frameset>' },
  '/site/index.html': { type: 'text/html', body: page('Site', '<p><a href="/site/fine.html">fine</a> <a href="/site/deep.html">deep</a></p>') },
  '/site/fine.html': { type: 'text/html', body: page('Fine', '<p>A fine page.</p>') },
  '/site/deep.html': { type: 'text/html', body: page('Deep page', divs(10_000)) },
  '/deep.zip': {
    type: 'application/zip',
    body: Buffer.from(zipSync({ 'docs/fine.md': new TextEncoder().encode('# Fine\n'), 'docs/deep.html': new TextEncoder().encode(page('Deep entry', divs(10_000))) })),
  },
  // What made the old scans for links go back over the whole text from each `<a ` (in the HTML,
  // here in an attribute's value) and each `[` (in the markdown turndown makes of it).
  '/unclosed-anchors.html': { type: 'text/html', body: `<title>Anchors</title><p title="${'<a '.repeat(100_000)}">text</p>` },
  '/unclosed-links.html': { type: 'text/html', body: `<title>Links</title><p>${'[a]('.repeat(25_000)}</p>` },
  '/deep.docx': { type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', body: docx(nestedTables(MAX_HTML_DEPTH)) },
  '/nested.docx': { type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', body: docx(paragraph('Nested tables') + nestedTables(5)) },
};

beforeAll(async () => {
  server = createServer((req, res) => {
    const found = documents[new URL(req.url ?? '/', 'http://x').pathname];
    if (!found) return res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    res.writeHead(200, { 'content-type': found.type }).end(found.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await startTestApp({ fetchAllowHosts: [new URL(origin).host] }, { jobs: true });
  acme = await buildOrganization(t.db, 'Deep documents');
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await t?.close();
});

const token = () => acme.admin.token;

async function newSpace(): Promise<string> {
  const res = await t.rest('POST', `/v1/orgs/${acme.organizationId}/spaces`, { token: token(), body: { title: 'Imports' } });
  expect(res.status).toBe(201);
  return res.body.id;
}
const revision = async (spaceId: string) => (await t.rest('GET', `/v1/spaces/${spaceId}/content`, { token: token() })).body.id;
const titles = async (spaceId: string) => ((await t.rest('GET', `/v1/spaces/${spaceId}/content/pages`, { token: token() })).body.pages as any[]).map((p) => p.title);

/**
 * Runs `work` while asking /health over and over: the slowest /health answer shows whether the
 * event loop was held. The work itself is timed as well.
 */
async function whileHealthIsAsked<T>(work: () => Promise<T>): Promise<{ result: T; ms: number; slowestHealthMs: number }> {
  let done = false;
  let slowestHealthMs = 0;
  const probe = (async () => {
    while (!done) {
      const started = performance.now();
      const res = await t.app.fetch(new Request(`${TEST_ORIGIN}/health`));
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      slowestHealthMs = Math.max(slowestHealthMs, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  const started = performance.now();
  try {
    const result = await work();
    return { result, ms: performance.now() - started, slowestHealthMs };
  } finally {
    done = true;
    await probe;
  }
}

const tooDeep = (what: string) => `url: ${what} nests HTML elements more than ${MAX_HTML_DEPTH} levels deep; the limit is ${MAX_HTML_DEPTH}`;

describe('HTML import', () => {
  it.each([
    ['10,000', '/deep-10k.html'],
    ['100,000', '/deep-100k.html'],
  ])('refuses a page nested %s deep with a quick 400 naming the limit, writes nothing, and /health keeps answering', async (_depth, path) => {
    const spaceId = await newSpace();
    const before = await revision(spaceId);
    const { result, ms, slowestHealthMs } = await whileHealthIsAsked(() =>
      t.rest('POST', `/v1/spaces/${spaceId}/content/import`, { token: token(), body: { url: `${origin}${path}`, source: 'html' } }),
    );
    expect(result).toMatchObject({ status: 400, body: { error: { code: 400, message: tooDeep(`${origin}${path}`) } } });
    expect(ms).toBeLessThan(QUICK_MS);
    expect(slowestHealthMs).toBeLessThan(QUICK_MS);
    expect(await revision(spaceId)).toBe(before);
    expect(await titles(spaceId)).toEqual([]);
  });

  it('counts what the browser builds: stray end tags and <div/> do not hide the depth', async () => {
    const spaceId = await newSpace();
    const before = await revision(spaceId);
    for (const path of ['/stray-ends.html', '/self-closing.html']) {
      const started = performance.now();
      const res = await t.rest('POST', `/v1/spaces/${spaceId}/content/import`, { token: token(), body: { url: `${origin}${path}`, source: 'html' } });
      expect(res).toMatchObject({ status: 400, body: { error: { code: 400, message: tooDeep(`${origin}${path}`) } } });
      expect(performance.now() - started).toBeLessThan(QUICK_MS);
    }
    expect(await revision(spaceId)).toBe(before);
  });

  it(`imports a page nested ${MAX_HTML_DEPTH} deep and refuses one level more`, async () => {
    const spaceId = await newSpace();
    const atLimit = await t.rest('POST', `/v1/spaces/${spaceId}/content/import`, { token: token(), body: { url: `${origin}/at-limit.html`, source: 'html' } });
    expect(atLimit.status, JSON.stringify(atLimit.body)).toBe(201);
    const over = await t.rest('POST', `/v1/spaces/${spaceId}/content/import`, { token: token(), body: { url: `${origin}/over-limit.html`, source: 'html' } });
    expect(over).toMatchObject({ status: 400, body: { error: { code: 400, message: tooDeep(`${origin}/over-limit.html`) } } });
    expect(await titles(spaceId)).toEqual(['At the limit']);
  });

  it('still imports an ordinary nested page (lists, tables, unclosed paragraphs, svg, a script, a comment)', async () => {
    const spaceId = await newSpace();
    const res = await t.rest('POST', `/v1/spaces/${spaceId}/content/import`, { token: token(), body: { url: `${origin}/normal.html`, source: 'html' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const pages = (await t.rest('GET', `/v1/spaces/${spaceId}/content/pages`, { token: token() })).body.pages as any[];
    expect(pages.map((p) => p.title)).toEqual(['Normal']);
    const one = await t.rest('GET', `/v1/spaces/${spaceId}/content/page/${pages[0].id}?format=markdown`, { token: token() });
    expect(one.body.markdown).toContain('deep_**](https://example.com/x)');
    expect(one.body.markdown).toContain('definition');
  });

  it('reads a page of 100,000 unclosed `<a ` and one of 25,000 unclosed `[a](` in one pass (they took 10 seconds and more)', async () => {
    const spaceId = await newSpace();
    for (const [path, source] of [
      ['/unclosed-anchors.html', 'website'],
      ['/unclosed-links.html', 'html'],
    ]) {
      const { result, ms, slowestHealthMs } = await whileHealthIsAsked(() => t.rest('POST', `/v1/spaces/${spaceId}/content/import`, { token: token(), body: { url: `${origin}${path}`, source } }));
      expect(result.status, JSON.stringify(result.body)).toBe(201);
      expect(ms).toBeLessThan(QUICK_MS);
      expect(slowestHealthMs).toBeLessThan(QUICK_MS);
    }
    expect(await titles(spaceId)).toEqual(['Anchors', 'Links']);
  });

  it('answers a page turndown cannot read with a 400, not a 500', async () => {
    const spaceId = await newSpace();
    const res = await t.rest('POST', `/v1/spaces/${spaceId}/content/import`, { token: token(), body: { url: `${origin}/frameset.html`, source: 'html' } });
    expect(res).toMatchObject({ status: 400, body: { error: { code: 400, message: `url: ${origin}/frameset.html could not be converted from HTML` } } });
  });

  it('refuses a zip whose HTML entry is too deep and a Word document whose tables are, writing nothing', async () => {
    const spaceId = await newSpace();
    const before = await revision(spaceId);
    const zipped = await t.rest('POST', `/v1/spaces/${spaceId}/content/import`, { token: token(), body: { url: `${origin}/deep.zip`, source: 'zip' } });
    expect(zipped).toMatchObject({ status: 400, body: { error: { code: 400, message: tooDeep('docs/deep.html') } } });
    const word = await t.rest('POST', `/v1/spaces/${spaceId}/content/import`, { token: token(), body: { url: `${origin}/deep.docx`, source: 'docx' } });
    expect(word).toMatchObject({ status: 400, body: { error: { code: 400, message: tooDeep('the document') } } });
    expect(await revision(spaceId)).toBe(before);
    const nested = await t.rest('POST', `/v1/spaces/${spaceId}/content/import`, { token: token(), body: { url: `${origin}/nested.docx`, source: 'docx' } });
    expect(nested.status, JSON.stringify(nested.body)).toBe(201);
    expect(await titles(spaceId)).toEqual(['nested']);
  });

  it('leaves out of a site a page that is too deep, as it does a page that cannot be fetched', async () => {
    const spaceId = await newSpace();
    const res = await t.rest('POST', `/v1/spaces/${spaceId}/content/import`, { token: token(), body: { url: `${origin}/site/index.html`, source: 'website' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ importedResources: 2, totalResources: 3 });
    expect(await titles(spaceId)).toEqual(['Site', 'Fine']);
  });
});

describe('OpenAPI specifications', () => {
  const INFO = 'openapi: 3.0.3\ninfo: { title: Deep, version: "1" }\npaths: {}\n';
  const JSON_INFO = '{"openapi":"3.0.3","info":{"title":"Deep","version":"1"},"paths":{},';
  const brackets = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
  /** Many branches each nested `levels` deep, about `bytes` in all: deep enough to be slow, shallow enough not to overflow. */
  const branches = (levels: number, bytes: number) => Array.from({ length: Math.floor(bytes / (2 * levels + 3)) }, () => brackets(levels));

  let serial = 0;
  /** Publishes the spec from a URL (a REST body holds at most 1 MB) and waits for its processing. */
  async function processSpec(text: string) {
    const slug = `deep-${++serial}`;
    documents[`/specs/${slug}`] = { type: 'application/yaml', body: text };
    const put = await t.rest('PUT', `/v1/orgs/${acme.organizationId}/openapi/${slug}`, { token: token(), body: { source: { url: `${origin}/specs/${slug}` } } });
    expect(put.status, JSON.stringify(put.body)).toBe(201);
    const id = put.body.id as string;
    const read = () =>
      t.graphql(`query ($id: ID!) { node(id: $id) { ... on OpenAPISpec { processingState lastProcessErrorCode lastProcessError lastVersion { title } } } }`, { id: gid('OpenAPISpec', id) }, token());
    const deadline = Date.now() + 60_000;
    for (;;) {
      const node = (await read()).body.data.node;
      if (node.processingState === 'COMPLETE' || Date.now() > deadline) return node;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  const refused = { processingState: 'COMPLETE', lastProcessErrorCode: 'PARSE_ERROR', lastProcessError: `the document nests deeper than ${MAX_SPEC_DEPTH} levels; the limit is ${MAX_SPEC_DEPTH}`, lastVersion: null };

  it.each([
    ['YAML flow sequences 10,000 deep', () => `${INFO}x-deep: ${brackets(10_000)}\n`],
    ['YAML block sequences 100,000 deep', () => `${INFO}x-deep:\n${'- '.repeat(100_000)}x\n`],
    ['YAML block mappings 1,000 deep', () => `${INFO}x-deep:\n${Array.from({ length: 1_000 }, (_, i) => `${' '.repeat(i + 1)}k:`).join('\n')} 1\n`],
    ['1 MB of YAML branches 450 deep', () => `${INFO}x-deep:\n${branches(450, 1_000_000).map((b) => `- ${b}`).join('\n')}\n`],
    ['YAML aliases nesting one another 60 levels at a time', () => INFO + Array.from({ length: 90 }, (_, i) => `x-a${i}: &a${i} ${'['.repeat(60)}${i ? `*a${i - 1}` : ''}${']'.repeat(60)}\n`).join('')],
    ['a YAML alias inside its own anchor', () => `${INFO}x-loop: &loop [*loop]\n`],
    ['JSON 500,000 deep', () => `${JSON_INFO}"x-deep":${brackets(500_000)}}`],
    ['1 MB of JSON branches 450 deep', () => `${JSON_INFO}"x-deep":[${branches(450, 1_000_000).join(',')}]}`],
  ])('fails processing for %s with PARSE_ERROR naming the limit, quickly, while /health keeps answering', async (_name, text) => {
    const { result, ms, slowestHealthMs } = await whileHealthIsAsked(() => processSpec(text()));
    expect(result).toEqual(refused);
    expect(ms).toBeLessThan(QUICK_MS);
    expect(slowestHealthMs).toBeLessThan(QUICK_MS);
  });

  it(`processes a spec nested ${MAX_SPEC_DEPTH} deep and refuses one level more`, async () => {
    // The document is level 1, x-deep's value level 2.
    expect(await processSpec(`${INFO}x-deep: ${brackets(MAX_SPEC_DEPTH - 1)}\n`)).toMatchObject({ lastProcessErrorCode: null, lastVersion: { title: 'Deep' } });
    expect(await processSpec(`${INFO}x-deep: ${brackets(MAX_SPEC_DEPTH)}\n`)).toEqual(refused);
    expect(await processSpec(`${JSON_INFO}"x-deep":${brackets(MAX_SPEC_DEPTH - 1)}}`)).toMatchObject({ lastProcessErrorCode: null, lastVersion: { title: 'Deep' } });
    expect(await processSpec(`${JSON_INFO}"x-deep":${brackets(MAX_SPEC_DEPTH)}}`)).toEqual(refused);
  });

  it("still processes real specs: GitBook's own, as JSON and as YAML, and YAML with anchors, block scalars and flow", async () => {
    for (const file of ['openapi.json', 'openapi.yaml']) {
      const text = readFileSync(`node_modules/@gitbook/api/spec/${file}`, 'utf8');
      expect(await processSpec(text)).toMatchObject({ lastProcessErrorCode: null, lastVersion: { title: expect.any(String) } });
    }
    const yaml = `openapi: 3.0.3
info:
  title: Anchors
  version: "1"
  description: |
    - not [ a list
      - nor { this
paths:
  /a:
    get:
      summary: "quoted [ with brackets {"
      parameters: [{ name: q, in: query, schema: { type: string, pattern: '^[a-z]{2}$' } }]
      responses: &ok
        '200':
          description: >
            folded ] text
  /b:
    get:
      summary: plain text with [brackets
        continued on a second line ]]]
      responses: *ok
`;
    expect(await processSpec(yaml)).toMatchObject({ lastProcessErrorCode: null, lastVersion: { title: 'Anchors' } });
  });
});
