import { GitBookAPI } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentHelpers } from '../../support/content';
import { gid } from '../../support/doors';
import { mutations } from '../../support/graphql';
import { scenario } from '../../support/scenario';
import type { TestApp } from '../../support/clients';
import type { Actor, OrgFixture } from '../../support/factories';

/**
 * `GET /v1/spaces/{spaceId}/revisions/{revisionId}` (the spec's getRevisionById), as the official
 * client calls it: an older revision answers what it held then, which the catalogue's GitHub and
 * GitLab sync read on `space_content_updated` (they failed on a 404 without it).
 */
let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;
let reader: Actor;
let server: { url: string; stop(): Promise<void> };

beforeAll(async () => {
  ({ t, acme, other, people: { reader } } = await scenario({ reader: ['read', 'Rita Reader'] }));
  server = await t.serve();
});
afterAll(async () => {
  await server?.stop();
  await t?.close();
});

const { newSpace } = contentHelpers(() => t, () => acme);
const { succeed } = mutations(() => t, { token: () => acme.admin.token });
const client = (token: string) => new GitBookAPI({ endpoint: server.url, authToken: token });
const status = (call: Promise<unknown>) => call.then(() => 200, (error: { code?: number }) => error.code);

describe('a revision by its id', () => {
  it('answers what the revision held, not what the space holds now, to a reader through the official client', async () => {
    const space = await newSpace({ title: 'Guides' });
    const first = await succeed('pageCreate', { spaceId: gid('Space', space.id), title: 'Install', markdown: 'Run the installer.' }, 'revision { restId }');
    await succeed('pageCreate', { spaceId: gid('Space', space.id), title: 'Upgrade', markdown: 'Stop, pull, start.' }, 'revision { restId }');
    const { data: old } = await client(reader.token).spaces.getRevisionById(space.id, first.revision.restId);
    expect(old).toMatchObject({ object: 'revision', id: first.revision.restId });
    expect(old.pages.map((p) => p.title)).toEqual(['Install']);
    const { data: now } = await client(reader.token).spaces.getCurrentRevision(space.id);
    expect(now.pages.map((p) => p.title)).toEqual(['Install', 'Upgrade']);
    expect(now.id).not.toBe(old.id);
    // The same id read again answers the same (a renderer keeps revisions for a long time).
    const { data: again } = await client(acme.admin.token).spaces.getRevisionById(space.id, first.revision.restId);
    expect(again).toEqual(old);
  });

  it("is missing for a revision of another space, another organization's, or none, alike", async () => {
    const mine = await newSpace({ title: 'Mine' });
    const elsewhere = await newSpace({ title: 'Elsewhere' });
    const theirs = (await t.rest('POST', `/v1/orgs/${other.organizationId}/spaces`, { token: other.admin.token, body: { title: 'Theirs' } })).body;
    const revisionOf = async (id: string, token: string) => (await t.rest('GET', `/v1/spaces/${id}/content`, { token })).body.id as string;
    const api = client(acme.admin.token);
    expect(await status(api.spaces.getRevisionById(mine.id, await revisionOf(mine.id, acme.admin.token)))).toBe(200);
    const answers = [
      await t.rest('GET', `/v1/spaces/${mine.id}/revisions/${await revisionOf(elsewhere.id, acme.admin.token)}`, { token: acme.admin.token }),
      await t.rest('GET', `/v1/spaces/${mine.id}/revisions/no-such-revision`, { token: acme.admin.token }),
      await t.rest('GET', `/v1/spaces/${theirs.id}/revisions/${await revisionOf(theirs.id, other.admin.token)}`, { token: acme.admin.token }),
    ];
    expect(answers.map((a) => a.status)).toEqual([404, 404, 404]);
    expect(answers[0].body).toEqual(answers[1].body);
    expect(await status(client(reader.token).spaces.getRevisionById(theirs.id, await revisionOf(theirs.id, other.admin.token)))).toBe(404);
    expect((await t.rest('GET', `/v1/spaces/${mine.id}/revisions/${await revisionOf(mine.id, acme.admin.token)}?computed=maybe`, { token: acme.admin.token })).status).toBe(400);
  });
});
