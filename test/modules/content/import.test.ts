import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/clients';
import type { OrgFixture } from '../../support/factories';
import { scenario } from '../../support/scenario';
import { contentBench } from '../../support/change-requests';
import { png } from '../../support/png';

/** Imports from a real HTTP server on loopback, allowed through the fetch allow-list. */
let t: TestApp;
let acme: OrgFixture;
let server: Server;
let origin: string;

const page = (title: string, body: string) => `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;
const zip = zipSync({
  'docs/SUMMARY.md': new TextEncoder().encode('# Summary\n\n* [Second](second.md)\n* [First](first.md)\n'),
  'docs/first.md': new TextEncoder().encode('# First\n\nGo to [the second](second.md). ![diagram](img/diagram.png)\n'),
  'docs/second.md': new TextEncoder().encode('# Second\n\nBack to [the first](./first.md).\n'),
  'docs/img/diagram.png': new Uint8Array(png(4, 4)),
});

const xml = (text: string) => new TextEncoder().encode(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>${text}`);
// The smallest Word document: content types, the package relation and one body with a heading and a paragraph.
const docx = zipSync({
  '[Content_Types].xml': xml('<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>'),
  '_rels/.rels': xml('<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>'),
  'word/document.xml': xml('<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Meeting notes</w:t></w:r></w:p><w:p><w:r><w:rPr><w:b/></w:rPr><w:t>Decided</w:t></w:r><w:r><w:t xml:space="preserve"> to ship on Friday.</w:t></w:r></w:p></w:body></w:document>'),
});

function site(path: string): { status: number; type?: string; body?: string | Buffer; location?: string } {
  if (path === '/' || path === '/index.html') {
    const links = Array.from({ length: 19 }, (_, i) => `<li><a href="/p${i + 1}.html">Page ${i + 1}</a></li>`).join('');
    return { status: 200, type: 'text/html; charset=utf-8', body: page('Home', `<p><img src="/img/logo.png" alt="logo"></p><ul>${links}</ul><p><a href="/missing.html">gone</a></p>`) };
  }
  const match = /^\/p(\d+)\.html$/.exec(path);
  if (match) {
    const n = Number(match[1]);
    const next = n < 19 ? `<a href="p${n + 1}.html">next</a>` : '';
    return { status: 200, type: 'text/html', body: page(`Page ${n}`, `<p>Body of page ${n}. <a href="/">home</a> ${next}</p><img src="img/logo.png">`) };
  }
  if (path === '/img/logo.png') return { status: 200, type: 'image/png', body: png(8, 8) };
  if (path === '/doc.md') return { status: 200, type: 'text/markdown', body: '# Release notes\n\n- Faster imports\n' };
  if (path === '/notes.docx') return { status: 200, type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', body: Buffer.from(docx) };
  if (path === '/archive.zip') return { status: 200, type: 'application/zip', body: Buffer.from(zip) };
  if (path === '/to-metadata') return { status: 302, location: 'http://169.254.169.254/latest/meta-data/' };
  if (path === '/to-loopback') return { status: 302, location: `http://127.0.0.2:${(server.address() as AddressInfo).port}/doc.md` };
  return { status: 404, type: 'text/plain', body: 'not found' };
}

beforeAll(async () => {
  ({ t, acme } = await scenario({}));
  server = createServer((req, res) => {
    const answer = site(new URL(req.url ?? '/', 'http://x').pathname);
    res.writeHead(answer.status, { ...(answer.type ? { 'content-type': answer.type } : {}), ...(answer.location ? { location: answer.location } : {}) });
    res.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await t?.close();
});

const allow = () => {
  t.config.fetchAllowHosts = [new URL(origin).host];
};
const token = () => acme.admin.token;
const titles = async (path: string) => ((await t.rest('GET', `${path}/content/pages`, { token: token() })).body.pages as any[]).map((p) => p.title);
const revision = async (spaceId: string) => (await t.rest('GET', `/v1/spaces/${spaceId}/content`, { token: token() })).body.id;
const bench = () => contentBench(() => t, () => acme, []);

describe('content import', () => {
  it('imports a 20-page site with its image, links between its pages and a broken link', async () => {
    allow();
    const b = await bench();
    const res = await t.rest('POST', `/v1/spaces/${b.spaceId}/content/import`, { token: token(), body: { url: `${origin}/`, source: 'website' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    // 20 pages and one image imported; the broken page counted but not imported.
    expect(res.body).toMatchObject({ importedResources: 21, totalResources: 22 });
    expect(res.body.revision).toBe(await revision(b.spaceId));
    const got = await titles(`/v1/spaces/${b.spaceId}`);
    expect(got).toHaveLength(20);
    expect(got.slice(0, 3)).toEqual(['Home', 'Page 1', 'Page 2']);
    const files = await t.rest('GET', `/v1/spaces/${b.spaceId}/content/files`, { token: token() });
    expect(files.body.items.map((f: any) => f.name)).toEqual(['logo.png']);
    const links = await t.rest('GET', `/v1/spaces/${b.spaceId}/links`, { token: token() });
    expect(links.body.stats.broken.total).toBe(1);
    const pageLinks = links.body.items.filter((u: any) => u.targetReference?.kind === 'page').map((u: any) => u.targetReference.page.title);
    expect(pageLinks).toEqual(expect.arrayContaining(['Home', 'Page 2', 'Page 19']));
    expect(links.body.items.some((u: any) => u.targetReference?.kind === 'file' && u.status === 'ok')).toBe(true);
  });

  it('imports one html page, one markdown file and a zip in SUMMARY.md order', async () => {
    allow();
    const b = await bench();
    const html = await t.rest('POST', `/v1/spaces/${b.spaceId}/content/import`, { token: token(), body: { url: `${origin}/p3.html`, source: 'html' } });
    expect(html.status, JSON.stringify(html.body)).toBe(201);
    expect(html.body).toMatchObject({ importedResources: 2, totalResources: 2 });
    const md = await t.rest('POST', `/v1/spaces/${b.spaceId}/content/import`, { token: token(), body: { url: `${origin}/doc.md`, source: 'markdown' } });
    expect(md.status, JSON.stringify(md.body)).toBe(201);
    const zipped = await t.rest('POST', `/v1/spaces/${b.spaceId}/content/import`, { token: token(), body: { url: `${origin}/archive.zip`, source: 'zip' } });
    expect(zipped.status, JSON.stringify(zipped.body)).toBe(201);
    expect(zipped.body).toMatchObject({ importedResources: 3, totalResources: 3 });
    expect(await titles(`/v1/spaces/${b.spaceId}`)).toEqual(['Page 3', 'Release notes', 'Second', 'First']);
    const links = await t.rest('GET', `/v1/spaces/${b.spaceId}/links`, { token: token() });
    expect(links.body.stats.broken.total).toBe(0);
  });

  it('imports a Word document as a page', async () => {
    allow();
    const b = await bench();
    const res = await t.rest('POST', `/v1/spaces/${b.spaceId}/content/import`, { token: token(), body: { url: `${origin}/notes.docx`, source: 'docx' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ importedResources: 1, totalResources: 1 });
    const pages = (await t.rest('GET', `/v1/spaces/${b.spaceId}/content/pages`, { token: token() })).body.pages as any[];
    expect(pages.map((p) => p.title)).toEqual(['Meeting notes']);
    const one = await t.rest('GET', `/v1/spaces/${b.spaceId}/content/page/${pages[0].id}?format=markdown`, { token: token() });
    expect(one.body.markdown).toContain('**Decided** to ship on Friday.');
  });

  it('refuses loopback without the setting, and redirects to internal addresses even with it', async () => {
    const b = await bench();
    const before = await revision(b.spaceId);
    t.config.fetchAllowHosts = [];
    const refused = await t.rest('POST', `/v1/spaces/${b.spaceId}/content/import`, { token: token(), body: { url: `${origin}/doc.md`, source: 'markdown' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe('url: 127.0.0.1 is a loopback address; fetching it is not allowed. The server\'s operator can allow this host with QUIRE_FETCH_ALLOW_HOSTS=127.0.0.1');
    allow();
    const metadata = await t.rest('POST', `/v1/spaces/${b.spaceId}/content/import`, { token: token(), body: { url: `${origin}/to-metadata`, source: 'markdown' } });
    expect(metadata.status).toBe(400);
    expect(metadata.body.error.message).toContain('169.254.169.254 is a cloud metadata address');
    // Cloud metadata is never a host to allow: no hint to the setting.
    expect(metadata.body.error.message).not.toContain('QUIRE_FETCH_ALLOW_HOSTS');
    const loopback = await t.rest('POST', `/v1/spaces/${b.spaceId}/content/import`, { token: token(), body: { url: `${origin}/to-loopback`, source: 'markdown' } });
    expect(loopback.status).toBe(400);
    expect(loopback.body.error.message).toContain('127.0.0.2 is a loopback address');
    expect(await revision(b.spaceId)).toBe(before);
  });

  it('answers bad input with a 4xx naming the problem and writes nothing', async () => {
    allow();
    const b = await bench();
    const before = await revision(b.spaceId);
    const notUri = await t.rest('POST', `/v1/spaces/${b.spaceId}/content/import`, { token: token(), body: { url: 'not a uri', source: 'markdown' } });
    expect(notUri.status).toBe(400);
    expect(notUri.body.error.message).toContain('url');
    const unknown = await t.rest('POST', `/v1/spaces/${b.spaceId}/content/import`, { token: token(), body: { url: `${origin}/doc.md`, source: 'notion' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain('website, html, markdown, zip, docx');
    const huge = await t.rest('POST', `/v1/spaces/${b.spaceId}/content/import`, { token: token(), rawBody: JSON.stringify({ url: `${origin}/doc.md`, source: 'markdown', pad: 'x'.repeat(10 * 1024 * 1024) }) });
    expect(huge.status).toBeGreaterThanOrEqual(400);
    expect(huge.status).toBeLessThan(500);
    const template = await t.rest('POST', `/v1/spaces/${b.spaceId}/content/template`, { token: token(), body: { id: 'nope' } });
    expect(template.status).toBe(400);
    expect(template.body.error.message).toContain('product-docs');
    expect(await revision(b.spaceId)).toBe(before);
  });

  it('applies a built-in template', async () => {
    const b = await bench();
    const res = await t.rest('POST', `/v1/spaces/${b.spaceId}/content/template`, { token: token(), body: { id: 'team-handbook' } });
    expect(res.status).toBe(201);
    expect(await titles(`/v1/spaces/${b.spaceId}`)).toEqual(['Welcome', 'Onboarding', 'How we work', 'Time off']);
  });

  it('imports into a change request only', async () => {
    allow();
    const b = await bench();
    const cr = await t.rest('POST', `/v1/spaces/${b.spaceId}/change-requests`, { token: token(), body: { subject: 'Import' } });
    expect(cr.status, JSON.stringify(cr.body)).toBe(201);
    const res = await t.rest('POST', `/v1/spaces/${b.spaceId}/change-requests/${cr.body.id}/content/import`, { token: token(), body: { url: `${origin}/doc.md`, source: 'markdown' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(await titles(`/v1/spaces/${b.spaceId}/change-requests/${cr.body.id}`)).toEqual(['Release notes']);
    expect(await titles(`/v1/spaces/${b.spaceId}`)).toEqual([]);
  });
});
