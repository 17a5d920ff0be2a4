import { GitBookAPI, GitBookAPIError } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/auth/context';
import { authenticate } from '../../src/auth/authenticate';
import { addContent } from '../../src/modules/content/service';
import { scenario } from '../support/scenario';
import { contentHelpers } from '../support/content';
import { png } from '../support/png';
import { validateResponse } from '../support/openapi';
import type { TestApp } from '../support/clients';
import type { Actor, OrgFixture } from '../support/factories';

/** Space content read through the official client, unmodified, over real HTTP. */
let t: TestApp;
let server: { url: string; stop(): Promise<void> };
let acme: OrgFixture;
let other: OrgFixture;
let people: Record<'reader', Actor>;
let api: GitBookAPI;
let space: Record<string, any>;
let ids: { pages: string[]; files: string[] };

beforeAll(async () => {
  ({ t, acme, other, people } = await scenario({ reader: ['read'] }));
  server = await t.serve();
  api = new GitBookAPI({ endpoint: server.url, authToken: people.reader.token });
  space = await contentHelpers(() => t, () => acme).newSpace({ title: 'Manual' });
  const ctx = createContext({ db: t.db, config: { port: 0, publicUrl: server.url, appUrl: server.url, dataDir: '' } }, await authenticate(t.db, `Bearer ${acme.admin.token}`));
  const added = await addContent(ctx, space.id, {
    pages: [
      { title: 'Welcome', markdown: '# Welcome\n\nStart [here](./guide/install).', children: [] },
      { type: 'group', title: 'Guide', children: [{ title: 'Install', markdown: 'Run `npm i`.' }, { type: 'link', title: 'Website', href: 'https://example.com/' }] },
    ],
    files: [{ name: 'logo.png', bytes: png(4, 4) }],
  });
  ids = { pages: added.pageIds, files: added.fileIds };
});
afterAll(async () => {
  await server?.stop();
  await t?.close();
});

describe('space content through the official GitBookAPI client', () => {
  it('reads the current revision, the page list, pages by id and by path', async () => {
    const { data: revision } = await api.spaces.getCurrentRevision(space.id);
    validateResponse('GET', `/v1/spaces/${space.id}/content`, 200, revision);
    expect(revision.pages.map((p) => p.title)).toEqual(['Welcome', 'Guide']);

    const { data: list } = await api.spaces.listPages(space.id);
    const guide = list.pages[1] as { pages: { title: string; type: string }[] };
    expect(guide.pages.map((p) => [p.title, p.type])).toEqual([
      ['Install', 'document'],
      ['Website', 'link'],
    ]);

    const { data: byId } = await api.spaces.getPageById(space.id, ids.pages[0], { format: 'markdown' });
    expect(byId).toMatchObject({ id: ids.pages[0], title: 'Welcome', path: 'welcome', markdown: expect.stringContaining('Start [here]') });

    const { data: byPath } = await api.spaces.getPageByPath(space.id, 'guide/install');
    validateResponse('GET', `/v1/spaces/${space.id}/content/path/guide/install`, 200, byPath);
    expect(byPath).toMatchObject({ title: 'Install', document: { object: 'document' } });
  });

  it('resolves a link between pages in the JSON document to the page it names', async () => {
    const { data } = await api.spaces.getPageById(space.id, ids.pages[0]);
    const text = JSON.stringify(data);
    expect(text).toContain(`"page":"${ids.pages[2]}"`);
  });

  it('lists files and reads one, with a download URL that serves its bytes', async () => {
    const { data: files } = await api.spaces.listFiles(space.id);
    expect(files.items.map((f) => f.name)).toEqual(['logo.png']);
    const { data: file } = await api.spaces.getFileById(space.id, ids.files[0]);
    expect(file).toMatchObject({ contentType: 'image/png', dimensions: { width: 4, height: 4 } });
    // The test app's public URL is a name; the same path on the loopback server is what it names.
    const url = new URL(file.downloadURL);
    const bytes = Buffer.from(await (await fetch(`${server.url}${url.pathname}${url.search}`)).arrayBuffer());
    expect(bytes.equals(png(4, 4))).toBe(true);
  });

  it('answers a missing page, and a space of another organization, with 404', async () => {
    await expect(api.spaces.getPageById(space.id, 'missing')).rejects.toSatisfy((e) => e instanceof GitBookAPIError && e.code === 404);
    const outsider = new GitBookAPI({ endpoint: server.url, authToken: other.admin.token });
    await expect(outsider.spaces.getCurrentRevision(space.id)).rejects.toSatisfy((e) => e instanceof GitBookAPIError && e.code === 404);
  });
});
