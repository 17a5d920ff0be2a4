import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANGE_REQUEST_CHANNEL } from '../../../src/modules/change-requests/live';
import type { TestApp } from '../../support/clients';
import { gid } from '../../support/doors';
import type { Actor, OrgFixture } from '../../support/factories';
import { mutations } from '../../support/graphql';
import { listening, secondInstance, subscribe, type SecondInstance } from '../../support/live';
import { scenario } from '../../support/scenario';

/**
 * changeRequestEvents over server-sent events, fed by PostgreSQL's NOTIFY: writes made through one
 * instance, by REST or GraphQL, reach a subscriber of another instance; access is checked at each event.
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

const QUERY = `subscription ($space: ID!, $cr: ID) { changeRequestEvents(spaceId: $space, changeRequestId: $cr) { kind changeRequestId changeRequest { subject status outdated } } }`;
const { succeed } = mutations(() => t, { token: () => acme.admin.token });

async function newSpace(title: string): Promise<string> {
  return (await t.rest('POST', `/v1/orgs/${acme.organizationId}/spaces`, { token: acme.admin.token, body: { title } })).body.id;
}
const createCr = async (spaceId: string, subject: string) => (await t.rest('POST', `/v1/spaces/${spaceId}/change-requests`, { token: acme.admin.token, body: { subject } })).body;
const watch = (token: string, spaceId: string, cr?: string) => subscribe(second.app, token, QUERY, { space: gid('Space', spaceId), ...(cr ? { cr: gid('ChangeRequest', cr) } : {}) });

describe('changeRequestEvents', () => {
  it('deliver every change of a change request made through the other instance, by REST and GraphQL, as it is now', async () => {
    const spaceId = await newSpace('Live requests');
    const elsewhere = await newSpace('Elsewhere');
    const sub = await watch(people.reader.token, spaceId);
    expect(sub.status).toBe(200);
    await listening(second.hub, CHANGE_REQUEST_CHANNEL, 1);
    const seen = async () => (await sub.next()).data.changeRequestEvents;

    // A change request of another space is not delivered: the next event is this space's.
    await createCr(elsewhere, 'Not here');
    const cr = await createCr(spaceId, 'First draft');
    const crGid = gid('ChangeRequest', cr.id);
    expect(await seen()).toEqual({ kind: 'CREATED', changeRequestId: cr.id, changeRequest: { subject: 'First draft', status: 'DRAFT', outdated: false } });

    await succeed('changeRequestUpdate', { changeRequestId: crGid, subject: 'Better subject' });
    expect(await seen()).toEqual({ kind: 'EDITED', changeRequestId: cr.id, changeRequest: { subject: 'Better subject', status: 'DRAFT', outdated: false } });

    await succeed('pageCreate', { spaceId: gid('Space', spaceId), changeRequestId: crGid, title: 'Proposed page', markdown: 'Hello' });
    expect(await seen()).toMatchObject({ kind: 'CONTENT_UPDATED', changeRequestId: cr.id });

    expect((await t.rest('PATCH', `/v1/spaces/${spaceId}/change-requests/${cr.id}`, { token: acme.admin.token, body: { status: 'open' } })).status).toBe(200);
    expect(await seen()).toEqual({ kind: 'STATUS_CHANGED', changeRequestId: cr.id, changeRequest: { subject: 'Better subject', status: 'OPEN', outdated: false } });

    // The space moves on (no change request event), then the change request is brought up to date by REST.
    await succeed('pageCreate', { spaceId: gid('Space', spaceId), title: 'Space page' });
    expect((await t.rest('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/update`, { token: acme.admin.token })).status).toBe(200);
    expect(await seen()).toEqual({ kind: 'CONTENT_UPDATED', changeRequestId: cr.id, changeRequest: { subject: 'Better subject', status: 'OPEN', outdated: false } });

    expect((await t.rest('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`, { token: acme.admin.token })).status).toBe(200);
    expect(await seen()).toEqual({ kind: 'STATUS_CHANGED', changeRequestId: cr.id, changeRequest: { subject: 'Better subject', status: 'MERGED', outdated: false } });

    const archived = await createCr(spaceId, 'To set aside');
    expect(await seen()).toMatchObject({ kind: 'CREATED', changeRequestId: archived.id });
    await succeed('changeRequestUpdate', { changeRequestId: gid('ChangeRequest', archived.id), status: 'ARCHIVED' });
    expect(await seen()).toMatchObject({ kind: 'STATUS_CHANGED', changeRequestId: archived.id, changeRequest: { status: 'ARCHIVED' } });
    await sub.close();
    await listening(second.hub, CHANGE_REQUEST_CHANNEL, 0);
  });

  it("deliver one change request's events only, when asked for it", async () => {
    const spaceId = await newSpace('One request');
    const watched = await createCr(spaceId, 'Watched');
    const ignored = await createCr(spaceId, 'Ignored');
    const sub = await watch(people.reader.token, spaceId, watched.id);
    await listening(second.hub, CHANGE_REQUEST_CHANNEL, 1);
    await succeed('changeRequestUpdate', { changeRequestId: gid('ChangeRequest', ignored.id), subject: 'Not this one' });
    await succeed('changeRequestUpdate', { changeRequestId: gid('ChangeRequest', watched.id), subject: 'This one' });
    expect((await sub.next()).data.changeRequestEvents).toEqual({ kind: 'EDITED', changeRequestId: watched.id, changeRequest: { subject: 'This one', status: 'DRAFT', outdated: false } });
    await sub.close();
    await listening(second.hub, CHANGE_REQUEST_CHANNEL, 0);
  });

  it('stop delivering to a subscriber who lost access, and end the stream', async () => {
    const spaceId = await newSpace('Leaving');
    const sub = await watch(people.leaver.token, spaceId);
    await listening(second.hub, CHANGE_REQUEST_CHANNEL, 1);
    await createCr(spaceId, 'Before');
    expect((await sub.next()).data.changeRequestEvents.kind).toBe('CREATED');
    expect((await t.rest('DELETE', `/v1/orgs/${acme.organizationId}/members/${people.leaver.userId}`, { token: acme.admin.token })).status).toBe(204);
    await createCr(spaceId, 'After the leaver left');
    expect(await sub.next()).toBeNull();
    await listening(second.hub, CHANGE_REQUEST_CHANNEL, 0);
  });

  it("answer another organization's space or change request exactly like a missing one", async () => {
    const spaceId = await newSpace('Private to Acme');
    const cr = await createCr(spaceId, 'Hidden');
    const refusal = async (token: string, space: string, request?: string) => {
      const sub = await watch(token, space, request);
      const first = await sub.next();
      expect(await sub.next()).toBeNull();
      return first.errors.map((e: { message: string; extensions: unknown }) => ({ message: e.message, extensions: e.extensions }));
    };
    const foreign = await refusal(other.admin.token, spaceId);
    expect(foreign).toEqual([{ message: 'Space not found', extensions: { code: 'NOT_FOUND' } }]);
    expect(await refusal(acme.admin.token, 'doesNotExist00000000')).toEqual(foreign);
    expect(await refusal(other.admin.token, spaceId, cr.id)).toEqual(foreign);
    expect(await refusal(acme.admin.token, spaceId, 'doesNotExist00000000')).toEqual([{ message: 'Change request not found', extensions: { code: 'NOT_FOUND' } }]);
  });
});
