import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPACE_CONTENT_CHANNEL } from '../../../src/modules/content/live';
import type { TestApp } from '../../support/clients';
import { gid } from '../../support/doors';
import type { Actor, OrgFixture } from '../../support/factories';
import { mutations } from '../../support/graphql';
import { listening, secondInstance, subscribe, type SecondInstance } from '../../support/live';
import { scenario } from '../../support/scenario';

/**
 * spaceContentEvents over server-sent events, fed by PostgreSQL's NOTIFY: each new revision of a
 * space, written through one instance by REST or GraphQL, reaches a subscriber of another
 * instance, who reads the new content from the event; access is checked at each event.
 */
let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;
let people: Record<'reader' | 'leaver', Actor>;
let second: SecondInstance;

beforeAll(async () => {
  ({ t, acme, other, people } = await scenario({ reader: ['read', 'Rita Reader'], leaver: ['read', 'Lee Leaver'] }));
  second = await secondInstance(t);
});
afterAll(async () => {
  await second?.stop();
  await t?.close();
});

const QUERY = `subscription ($space: ID!) { spaceContentEvents(spaceId: $space) { kind revisionId revision { restId type pages { title } } space { restId } } }`;
const { succeed } = mutations(() => t, { token: () => acme.admin.token });

async function newSpace(title: string): Promise<string> {
  return (await t.rest('POST', `/v1/orgs/${acme.organizationId}/spaces`, { token: acme.admin.token, body: { title } })).body.id;
}
const watch = (token: string, spaceId: string) => subscribe(second.app, token, QUERY, { space: gid('Space', spaceId) });
const currentRevision = async (spaceId: string) => (await t.rest('GET', `/v1/spaces/${spaceId}/content`, { token: acme.admin.token })).body.id;

describe('spaceContentEvents', () => {
  it('deliver each new revision written through the other instance, by GraphQL, REST and a merge, with its content', async () => {
    const spaceId = await newSpace('Live content');
    const elsewhere = await newSpace('Elsewhere');
    const sub = await watch(people.reader.token, spaceId);
    expect(sub.status).toBe(200);
    await listening(second.hub, SPACE_CONTENT_CHANNEL, 1);
    const seen = async () => (await sub.next()).data.spaceContentEvents;

    // Another space's edit is not delivered: the next event is this space's.
    await succeed('pageCreate', { spaceId: gid('Space', elsewhere), title: 'Not here' });
    await succeed('pageCreate', { spaceId: gid('Space', spaceId), title: 'Welcome', markdown: 'Hi' });
    let revision = await currentRevision(spaceId);
    expect(await seen()).toEqual({ kind: 'EDITS', revisionId: revision, revision: { restId: revision, type: 'edits', pages: [{ title: 'Welcome' }] }, space: { restId: spaceId } });

    expect((await t.rest('POST', `/v1/spaces/${spaceId}/content/template`, { token: acme.admin.token, body: { id: 'team-handbook' } })).status).toBe(201);
    revision = await currentRevision(spaceId);
    const afterTemplate = await seen();
    expect(afterTemplate).toMatchObject({ kind: 'EDITS', revisionId: revision, revision: { restId: revision } });
    expect(afterTemplate.revision.pages.length).toBeGreaterThan(1);

    // An edit of a change request is not the space's content; its merge is.
    const cr = (await t.rest('POST', `/v1/spaces/${spaceId}/change-requests`, { token: acme.admin.token, body: { subject: 'Add a page' } })).body;
    const crGid = gid('ChangeRequest', cr.id);
    await succeed('pageCreate', { spaceId: gid('Space', spaceId), changeRequestId: crGid, title: 'Merged in' });
    const merged = await succeed('changeRequestMerge', { changeRequestId: crGid }, 'result revision { restId }');
    expect(merged.result).toBe('MERGED');
    const event = await seen();
    expect(event).toMatchObject({ kind: 'MERGE', revisionId: merged.revision.restId, revision: { type: 'merge' } });
    expect(event.revision.pages.map((p: { title: string }) => p.title)).toContain('Merged in');
    await sub.close();
    await listening(second.hub, SPACE_CONTENT_CHANNEL, 0);
  });

  it('stop delivering to a subscriber who lost access, and end the stream', async () => {
    const spaceId = await newSpace('Leaving');
    const sub = await watch(people.leaver.token, spaceId);
    await listening(second.hub, SPACE_CONTENT_CHANNEL, 1);
    await succeed('pageCreate', { spaceId: gid('Space', spaceId), title: 'Before' });
    expect((await sub.next()).data.spaceContentEvents.kind).toBe('EDITS');
    expect((await t.rest('DELETE', `/v1/orgs/${acme.organizationId}/members/${people.leaver.userId}`, { token: acme.admin.token })).status).toBe(204);
    await succeed('pageCreate', { spaceId: gid('Space', spaceId), title: 'After the leaver left' });
    expect(await sub.next()).toBeNull();
    await listening(second.hub, SPACE_CONTENT_CHANNEL, 0);
  });

  it("answer another organization's space exactly like a missing one", async () => {
    const spaceId = await newSpace('Private to Acme');
    const refusal = async (token: string, space: string) => {
      const sub = await watch(token, space);
      const first = await sub.next();
      expect(await sub.next()).toBeNull();
      return first.errors.map((e: { message: string; extensions: unknown }) => ({ message: e.message, extensions: e.extensions }));
    };
    const foreign = await refusal(other.admin.token, spaceId);
    expect(foreign).toEqual([{ message: 'Space not found', extensions: { code: 'NOT_FOUND' } }]);
    expect(await refusal(acme.admin.token, 'doesNotExist00000000')).toEqual(foreign);
  });
});
