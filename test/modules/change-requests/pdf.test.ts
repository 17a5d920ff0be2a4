import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/clients';
import type { Actor, OrgFixture } from '../../support/factories';
import { scenario } from '../../support/scenario';
import { contentBench, type ChangeRequestRef, type ContentBench } from '../../support/change-requests';
import { png } from '../../support/png';

/**
 * The change request's PDF, read back with poppler's pdftotext and pdfimages: pages in tree order,
 * their blocks, one page with or without its children, links that expire.
 */
const poppler = (() => {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
if (!poppler && process.env.QUIRE_REQUIRE_PDFTOTEXT) throw new Error('pdftotext (Debian package poppler-utils) is required here');

let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;
let people: Record<'reader', Actor>;
let b: ContentBench;
let cr: ChangeRequestRef;
const dir = mkdtempSync(join(tmpdir(), 'quire-pdf-'));

const GUIDE = [
  '# Getting started',
  '',
  'Quire keeps **every revision** of your docs.',
  '',
  '- first bullet',
  '- second bullet',
  '',
  '1. step one',
  '2. step two',
  '',
  '```sh',
  'npm run quire -- token create',
  '```',
  '',
  '| Setting | Meaning |',
  '| ------- | ------- |',
  '| PORT | where it listens |',
  '',
  '![The logo](logo.png)',
].join('\n');

beforeAll(async () => {
  ({ t, acme, other, people } = await scenario({ reader: ['read', 'Rita Reader'] }));
  b = await contentBench(() => t, () => acme, [
    { title: 'Guide', markdown: GUIDE, children: [{ title: 'Install', markdown: 'Install it with npm.' }] },
    { title: 'Reference', markdown: 'The reference, as it was.' },
  ]);
  await b.space.upload('logo.png', png(24, 12));
  cr = await b.openChangeRequest('Docs for the PDF');
  await b.editor(cr).update('Reference', { markdown: 'The reference, as proposed.' });
  await b.editor(cr).create('Appendix', { markdown: 'Appendix words.' });
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await t?.close();
});

async function pdfLink(query = '', token = people.reader.token) {
  return t.rest('GET', `/v1/spaces/${b.spaceId}/change-requests/${cr.number}/pdf${query}`, { token });
}

async function fetchPdf(url: string) {
  const res = await t.app.fetch(new Request(url));
  return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}

function pdfText(bytes: Buffer): string {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, bytes);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

function imageCount(bytes: Buffer): number {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, bytes);
  return execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' }).trim().split('\n').length - 2;
}

const order = (text: string, words: string[]) => words.map((w) => text.indexOf(w));

describe.skipIf(!poppler)('change request PDF', () => {
  it('answers a signed link to a PDF of the change request pages, in tree order, with their blocks', async () => {
    const res = await pdfLink();
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['url']);
    const pdf = await fetchPdf(res.body.url);
    expect(pdf.status).toBe(200);
    expect(pdf.type).toBe('application/pdf');
    expect(pdf.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(pdf.bytes);
    const at = order(text, ['Getting started', 'every revision', 'first bullet', '1. step one', 'npm run quire -- token create', 'where it listens', 'Install it with npm.', 'The reference, as proposed.', 'Appendix words.']);
    expect(at.every((i) => i >= 0), text).toBe(true);
    expect([...at].sort((x, y) => x - y)).toEqual(at);
    expect(text).not.toContain('as it was');
    expect(imageCount(pdf.bytes)).toBe(1);
  });

  it('prints one page with its children, or only the page', async () => {
    const pages = await b.pagesByTitle(cr);
    const withChildren = pdfText((await fetchPdf((await pdfLink(`?page=${pages.Guide.id}`)).body.url)).bytes);
    expect(withChildren).toContain('every revision');
    expect(withChildren).toContain('Install it with npm.');
    expect(withChildren).not.toContain('The reference');
    const only = pdfText((await fetchPdf((await pdfLink(`?page=${pages.Guide.id}&only=true`)).body.url)).bytes);
    expect(only).toContain('every revision');
    expect(only).not.toContain('Install it with npm.');
    const appendix = pdfText((await fetchPdf((await pdfLink(`?page=${pages.Appendix.id}&only=true`)).body.url)).bytes);
    expect(appendix.trim()).toMatch(/^Appendix\s+Appendix words\.$/);
  });

  it('refuses a bad query, a missing page, and strangers; a tampered or expired link gives nothing', async () => {
    expect((await pdfLink('?only=maybe')).status).toBe(400);
    expect((await pdfLink('?only=true')).status).toBe(400);
    expect((await pdfLink('?page=doesNotExist00000000')).status).toBe(404);
    expect((await pdfLink('', other.admin.token)).status).toBe(404);

    const { url } = (await pdfLink()).body;
    const tampered = new URL(url);
    tampered.searchParams.set('only', 'true');
    expect((await fetchPdf(tampered.toString())).status).toBe(404);
    t.clock.now = new Date(Date.now() + 2 * 3600_000);
    try {
      expect((await fetchPdf(url)).status).toBe(404);
    } finally {
      t.clock.now = null;
    }
  });

  it('is given to GraphQL readers as ChangeRequest.pdfUrl', async () => {
    const res = await t.graphql('query ($id: ID!) { node(id: $id) { ... on ChangeRequest { pdfUrl } } }', { id: cr.gid }, people.reader.token);
    const text = pdfText((await fetchPdf(res.body.data.node.pdfUrl)).bytes);
    expect(text).toContain('Appendix words.');
  });
});
