import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scenario } from '../../support/scenario';
import { contentHelpers } from '../../support/content';
import { gid } from '../../support/doors';
import { png } from '../../support/png';
import { TEST_ORIGIN, type TestApp } from '../../support/clients';
import type { Actor, OrgFixture } from '../../support/factories';
import { DEFAULT_HTTP_SETTINGS } from '../../../src/config/config';

/** Files uploaded through GraphQL's multipart requests, listed through /v1, downloaded from Quire. */
let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;
let people: Record<'reader', Actor>;
let space: Record<string, any>;

beforeAll(async () => {
  ({ t, acme, other, people } = await scenario({ reader: ['read'] }));
  space = await newSpace({ title: 'Assets' });
});
afterAll(() => t?.close());

const { newSpace } = contentHelpers(() => t, () => acme);

const UPLOAD = `mutation ($input: FileUploadInput!) {
  fileUpload(input: $input) { userErrors { code field message } file { restId name contentType size width height downloadUrl } revision { restId } }
}`;

/** A GraphQL multipart request (the spec Yoga implements): operations, map, then the file part. */
async function upload(bytes: Buffer, filename: string, input: Record<string, unknown> = {}, token = acme.admin.token) {
  const form = new FormData();
  form.set('operations', JSON.stringify({ query: UPLOAD, variables: { input: { spaceId: gid('Space', space.id), file: null, ...input } } }));
  form.set('map', JSON.stringify({ 0: ['variables.input.file'] }));
  form.set('0', new Blob([new Uint8Array(bytes)]), filename);
  // Encoded first, so the request declares its length as HTTP clients do.
  const encoded = new Response(form);
  const body = Buffer.from(await encoded.arrayBuffer());
  const headers = { authorization: `Bearer ${token}`, 'content-type': encoded.headers.get('content-type')!, 'content-length': String(body.length) };
  const response = await t.app.fetch(new Request(`${TEST_ORIGIN}/graphql`, { method: 'POST', headers, body }));
  return { status: response.status, body: (await response.json()) as any };
}

async function download(url: string) {
  const response = await t.app.fetch(new Request(url));
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

describe('file upload and download', () => {
  it('stores an image, reads its type and size from the bytes, and serves it at a signed URL', async () => {
    const image = png(3, 2);
    const res = await upload(image, 'diagram.bin');
    expect(res.status).toBe(200);
    const { file, userErrors } = res.body.data.fileUpload;
    expect(userErrors).toEqual([]);
    expect(file).toMatchObject({ name: 'diagram.bin', contentType: 'image/png', size: image.length, width: 3, height: 2 });

    const listed = await t.rest('GET', `/v1/spaces/${space.id}/content/files`, { token: people.reader.token });
    expect(listed.status).toBe(200);
    expect(listed.body.items).toContainEqual(
      expect.objectContaining({ id: file.restId, name: 'diagram.bin', contentType: 'image/png', size: image.length, dimensions: { width: 3, height: 2 } }),
    );
    const one = await t.rest('GET', `/v1/spaces/${space.id}/content/files/${file.restId}`, { token: people.reader.token });
    expect(one.status).toBe(200);

    const got = await download(one.body.downloadURL);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('image/png');
    expect(got.bytes.equals(image)).toBe(true);
  });

  it('keeps one blob for the same bytes uploaded twice', async () => {
    const image = png(5, 5, [1, 2, 3]);
    const first = (await upload(image, 'a.png')).body.data.fileUpload.file;
    const second = (await upload(image, 'b.png')).body.data.fileUpload.file;
    expect(first.restId).not.toBe(second.restId);
    const hash = createHash('sha256').update(image).digest('hex');
    const { rows } = await t.database.executeSql(`SELECT count(*)::int AS n FROM blobs WHERE hash = $1`, [hash]);
    expect(rows).toEqual([{ n: 1 }]);
  });

  it('stops serving a download URL once it has expired or been tampered with', async () => {
    const { file } = (await upload(Buffer.from('plain words\n'), 'notes.txt')).body.data.fileUpload;
    expect(file.contentType).toBe('text/plain');
    const tampered = file.downloadUrl.replace('notes.txt', 'other.txt');
    expect((await download(tampered)).status).toBe(404);

    t.clock.now = new Date(Date.now() + 2 * 3600_000);
    try {
      const expired = await download(file.downloadUrl);
      expect(expired.status).toBe(404);
    } finally {
      t.clock.now = null;
    }
    expect((await download(file.downloadUrl)).status).toBe(200);
  });

  it('refuses an empty file, a name with a slash, a reader, and another organization, writing nothing', async () => {
    const before = (await t.rest('GET', `/v1/spaces/${space.id}/content`, { token: acme.admin.token })).body.id;
    const empty = await upload(Buffer.alloc(0), 'empty.txt');
    expect(empty.body.data.fileUpload.userErrors).toEqual([{ code: 'VALIDATION_FAILED', field: ['file'], message: expect.stringMatching(/empty/) }]);
    const slashed = await upload(Buffer.from('x'), 'x.txt', { name: '../etc/passwd' });
    expect(slashed.body.data.fileUpload.userErrors).toEqual([{ code: 'VALIDATION_FAILED', field: ['name'], message: expect.stringMatching(/slash/) }]);
    const reader = await upload(Buffer.from('x'), 'x.txt', {}, people.reader.token);
    expect(reader.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const outsider = await upload(Buffer.from('x'), 'x.txt', {}, other.admin.token);
    expect(outsider.body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect((await t.rest('GET', `/v1/spaces/${space.id}/content`, { token: acme.admin.token })).body.id).toBe(before);
  });

  it('refuses a file over the upload size limit with 413', async () => {
    // Over the body limit of other requests, under the upload limit: taken.
    const taken = await upload(Buffer.alloc(DEFAULT_HTTP_SETTINGS.bodyLimitBytes * 2, 1), 'big.bin');
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
    const res = await upload(Buffer.alloc(DEFAULT_HTTP_SETTINGS.uploadLimitBytes + 1, 1), 'big.bin');
    expect(res.status, JSON.stringify(res.body)).toBe(413);
  });
});
