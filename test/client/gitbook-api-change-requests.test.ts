import { ChangeRequestStatus, GitBookAPI, GitBookAPIError } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scenario } from '../support/scenario';
import { contentBench, type ContentBench } from '../support/change-requests';
import { validateResponse } from '../support/openapi';
import { gid } from '../support/doors';
import type { TestApp } from '../support/clients';
import type { Actor, OrgFixture } from '../support/factories';

/** A change request's life through the official client, unmodified, over real HTTP. */
let t: TestApp;
let server: { url: string; stop(): Promise<void> };
let acme: OrgFixture;
let people: Record<'editor' | 'reader', Actor>;
let editor: GitBookAPI;
let reader: GitBookAPI;
let b: ContentBench;

beforeAll(async () => {
  ({ t, acme, people } = await scenario({ editor: ['edit', 'Erin Editor'], reader: ['read', 'Rita Reader'] }));
  server = await t.serve();
  editor = new GitBookAPI({ endpoint: server.url, authToken: people.editor.token });
  reader = new GitBookAPI({ endpoint: server.url, authToken: people.reader.token });
  b = await contentBench(() => t, () => acme, [{ title: 'Intro', markdown: 'Hello [guide](guide).' }, { title: 'Guide', markdown: 'one\n\ntwo' }], ['notes.txt']);
});
afterAll(async () => {
  await server?.stop();
  await t?.close();
});

describe('change requests through the official GitBookAPI client', () => {
  it('creates, lists, reads, edits, updates and merges a change request', async () => {
    const { data: created } = await editor.spaces.createChangeRequest(b.spaceId, { subject: 'Rework the guide' });
    validateResponse('POST', `/v1/spaces/${b.spaceId}/change-requests`, 201, created);
    expect(created).toMatchObject({ number: 1, status: 'draft', subject: 'Rework the guide' });

    const { data: opened } = await editor.spaces.updateChangeRequestById(b.spaceId, created.id, { status: ChangeRequestStatus.Open });
    expect(opened.status).toBe('open');
    const { data: list } = await reader.spaces.listChangeRequestsForSpace(b.spaceId, { status: ChangeRequestStatus.Open });
    expect(list.items.map((c) => c.id)).toEqual([created.id]);
    const { data: byNumber } = await reader.spaces.getChangeRequestById(b.spaceId, '1');
    expect(byNumber.id).toBe(created.id);

    const cr = { id: created.id, number: 1, gid: gid('ChangeRequest', created.id) };
    await b.editor(cr).update('Guide', { markdown: 'one\n\ntwo\n\nthree' });
    await b.space.update('Intro', { markdown: 'Hello again [guide](guide).' });

    const { data: revision } = await reader.spaces.getRevisionOfChangeRequestById(b.spaceId, created.id);
    expect(revision.pages.map((p) => p.title)).toEqual(['Intro', 'Guide']);
    const { data: pages } = await reader.spaces.listPagesInChangeRequest(b.spaceId, created.id);
    const guideId = pages.pages[1].id;
    const { data: guide } = await reader.spaces.getPageInChangeRequestById(b.spaceId, created.id, guideId, { format: 'markdown' });
    expect(guide).toMatchObject({ title: 'Guide', markdown: 'one\n\ntwo\n\nthree' });
    const { data: files } = await reader.spaces.listFilesInChangeRequestById(b.spaceId, created.id);
    const { data: file } = await reader.spaces.getFileInChangeRequestById(b.spaceId, created.id, files.items[0].id);
    expect(file.name).toBe('notes.txt');
    const { data: backlinks } = await reader.spaces.listChangeRequestFileBacklinks(b.spaceId, created.id, file.id);
    expect(backlinks.items).toEqual([]);
    const { data: links } = await reader.spaces.listPageLinksInChangeRequest(b.spaceId, created.id, pages.pages[0].id);
    expect(links.stats).toEqual({ total: 1, broken: { total: 0 } });

    const { data: outdated } = await reader.spaces.getChangeRequestById(b.spaceId, created.id);
    expect(outdated.outdated).toBe(true);
    const { data: updated } = await editor.spaces.updateChangeRequest(b.spaceId, created.id);
    expect(updated.result).toBe('update');

    const { data: pdf } = await reader.spaces.getChangeRequestPdf(b.spaceId, created.id, { page: guideId, only: true });
    const fetched = await t.app.fetch(new Request(pdf.url));
    expect(fetched.headers.get('content-type')).toBe('application/pdf');

    const { data: merged } = await editor.spaces.mergeChangeRequest(b.spaceId, created.id);
    expect(merged.result).toBe('merge');
    const { data: current } = await reader.spaces.getCurrentRevision(b.spaceId);
    expect(current).toMatchObject({ id: merged.revision, type: 'merge', mergedFrom: { id: created.id, status: 'merged' } });
  });

  it('gets the platform error shape for a reader merging and an unknown status', async () => {
    const { data: created } = await editor.spaces.createChangeRequest(b.spaceId, {});
    const refused = await reader.spaces.mergeChangeRequest(b.spaceId, created.id).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(GitBookAPIError);
    expect((refused as GitBookAPIError).code).toBe(403);
    const bad = await editor.spaces.updateChangeRequestById(b.spaceId, created.id, { status: 'closed' as ChangeRequestStatus.Open }).catch((e: unknown) => e);
    expect((bad as GitBookAPIError).code).toBe(400);
  });
});
