import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/clients';
import type { Actor, OrgFixture } from '../../support/factories';
import { scenario } from '../../support/scenario';
import { contentBench } from '../../support/change-requests';
import { mutations } from '../../support/graphql';
import { gid } from '../../support/doors';

/** A change request's life through both doors: numbering, status rules, counters, outdated, update, lists. */
let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;
let people: Record<'editor' | 'reader', Actor>;

beforeAll(async () => {
  ({ t, acme, other, people } = await scenario({ editor: ['edit', 'Erin Editor'], reader: ['read', 'Rita Reader'] }));
});
afterAll(() => t?.close());

const { succeed, refused } = mutations(() => t, { token: () => acme.admin.token });
const bench = () => contentBench(() => t, () => acme, [{ title: 'Intro', markdown: 'one\n\ntwo' }]);
const crPath = (space: string, cr: string | number = '') => `/v1/spaces/${space}/change-requests${cr === '' ? '' : `/${cr}`}`;
const counters = async (space: string) => {
  const { body } = await t.rest('GET', `/v1/spaces/${space}`, { token: acme.admin.token });
  return [body.changeRequests, body.changeRequestsOpen, body.changeRequestsDraft];
};

describe('creating and reading', () => {
  it('branches from the current revision, numbers per space, and answers by id or number', async () => {
    const b = await bench();
    const current = (await b.revision()).id;
    const first = await t.rest('POST', crPath(b.spaceId), { token: people.editor.token, body: { subject: 'Fix the intro' } });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ object: 'change-request', number: 1, status: 'draft', subject: 'Fix the intro', revision: current, revisionInitial: current, outdated: false, createdBy: { id: people.editor.userId } });
    expect(first.headers.get('location')).toBe(first.body.urls.location);
    const second = await t.rest('POST', crPath(b.spaceId), { token: people.editor.token, body: {} });
    expect(second.body).toMatchObject({ number: 2, subject: '' });

    const byNumber = await t.rest('GET', crPath(b.spaceId, 2), { token: people.reader.token });
    expect(byNumber.body.id).toBe(second.body.id);
    expect((await t.rest('GET', crPath(b.spaceId, first.body.id), { token: people.reader.token })).body.number).toBe(1);
    expect((await t.rest('GET', crPath(b.spaceId, 3), { token: acme.admin.token })).status).toBe(404);

    // Numbers belong to the space: another space starts at 1 again.
    const c = await bench();
    expect((await t.rest('POST', crPath(c.spaceId), { token: acme.admin.token, body: {} })).body.number).toBe(1);
  });

  it('keeps the space counters by status', async () => {
    const b = await bench();
    expect(await counters(b.spaceId)).toEqual([0, 0, 0]);
    const one = await b.openChangeRequest();
    const two = await b.openChangeRequest();
    expect(await counters(b.spaceId)).toEqual([2, 0, 2]);
    await t.rest('PATCH', crPath(b.spaceId, one.id), { token: acme.admin.token, body: { status: 'open' } });
    expect(await counters(b.spaceId)).toEqual([2, 1, 1]);
    await t.rest('PATCH', crPath(b.spaceId, two.id), { token: acme.admin.token, body: { status: 'archived' } });
    expect(await counters(b.spaceId)).toEqual([2, 1, 0]);
    await t.rest('POST', `${crPath(b.spaceId, one.id)}/merge`, { token: acme.admin.token });
    expect(await counters(b.spaceId)).toEqual([2, 0, 0]);
    const gql = await t.graphql(`query ($id: ID!) { node(id: $id) { ... on Space { counters { changeRequests changeRequestsOpen changeRequestsDraft } } } }`, { id: b.spaceGid }, acme.admin.token);
    expect(gql.body.data.node.counters).toEqual({ changeRequests: 2, changeRequestsOpen: 0, changeRequestsDraft: 0 });
  });

  it('lists by status (open by default) and by contributor, newest first, in pages', async () => {
    const b = await bench();
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await b.openChangeRequest(`Change ${i}`));
    for (const cr of made.slice(0, 3)) await t.rest('PATCH', crPath(b.spaceId, cr.id), { token: acme.admin.token, body: { status: 'open' } });
    // The editor contributes to the third through an edit of their own.
    await mutations(() => t, { token: () => people.editor.token }).succeed('pageUpdate', { pageId: b.page('Intro'), changeRequestId: made[2].gid, markdown: 'editor words' });

    const open = await t.rest('GET', `${crPath(b.spaceId)}?limit=2`, { token: people.reader.token });
    expect(open.body.items.map((i: any) => i.number)).toEqual([3, 2]);
    const next = await t.rest('GET', `${crPath(b.spaceId)}?limit=2&page=${open.body.next.page}`, { token: people.reader.token });
    expect(next.body.items.map((i: any) => i.number)).toEqual([1]);
    expect(next.body.next).toBeUndefined();
    const drafts = await t.rest('GET', `${crPath(b.spaceId)}?status=draft`, { token: people.reader.token });
    expect(drafts.body.items.map((i: any) => i.number)).toEqual([5, 4]);
    const mine = await t.rest('GET', `${crPath(b.spaceId)}?contributor=${people.editor.userId}`, { token: people.reader.token });
    expect(mine.body.items.map((i: any) => i.number)).toEqual([3]);

    const gql = await t.graphql(
      `query ($id: ID!) { node(id: $id) { ... on Space { changeRequests(first: 10) { totalCount edges { node { number contributors { displayName } } } } drafts: changeRequests(status: DRAFT) { edges { node { number } } } } } }`,
      { id: b.spaceGid },
      people.reader.token,
    );
    const numbers = (connection: any) => connection.edges.map((e: any) => e.node.number);
    expect(numbers(gql.body.data.node.changeRequests)).toEqual([3, 2, 1]);
    expect(gql.body.data.node.changeRequests.totalCount).toBe(3);
    expect(gql.body.data.node.changeRequests.edges[0].node.contributors.map((u: any) => u.displayName)).toEqual(expect.arrayContaining(['Erin Editor']));
    expect(numbers(gql.body.data.node.drafts)).toEqual([5, 4]);
  });
});

describe('status rules and bad input', () => {
  it('refuses an unknown status, merged by PATCH, opening without a subject, and long subjects; nothing changes', async () => {
    const b = await bench();
    const cr = await b.openChangeRequest('');
    const cases: [unknown, number, RegExp][] = [
      [{ status: 'closed' }, 400, /status/],
      [{ status: 'merged' }, 400, /merge/],
      [{ status: 'open', subject: '' }, 400, /subject/],
      [{ status: 'open' }, 400, /subject/],
      [{ subject: 'x'.repeat(101) }, 400, /subject/],
      [{ subject: 42 }, 400, /subject/],
    ];
    for (const [body, status, message] of cases) {
      const res = await t.rest('PATCH', crPath(b.spaceId, cr.id), { token: acme.admin.token, body });
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.error.message).toMatch(message);
    }
    const after = await t.rest('GET', crPath(b.spaceId, cr.id), { token: acme.admin.token });
    expect(after.body).toMatchObject({ status: 'draft', subject: '' });
    expect((await t.rest('GET', `${crPath(b.spaceId)}?status=done`, { token: acme.admin.token })).status).toBe(400);
  });

  it('refuses merging, updating or editing an archived or merged change request, and a merged one cannot be reopened', async () => {
    const b = await bench();
    const archived = await b.openChangeRequest('Parked');
    await t.rest('PATCH', crPath(b.spaceId, archived.id), { token: acme.admin.token, body: { status: 'archived' } });
    const before = (await b.revision()).id;
    for (const action of ['merge', 'update']) {
      const res = await t.rest('POST', `${crPath(b.spaceId, archived.id)}/${action}`, { token: acme.admin.token });
      expect(res.status, action).toBe(409);
      expect(res.body.error.message).toMatch(/archived/);
    }
    const edit = await t.graphql(
      'mutation ($input: PageUpdateInput!) { pageUpdate(input: $input) { userErrors { code message } } }',
      { input: { pageId: b.page('Intro'), changeRequestId: archived.gid, markdown: 'nope' } },
      acme.admin.token,
    );
    expect(JSON.stringify(edit.body)).toMatch(/archived/);
    expect((await b.revision()).id).toBe(before);
    expect((await b.revision(archived)).id).toBe(before);

    const merged = await b.openChangeRequest('Done');
    await b.editor(merged).update('Intro', { markdown: 'merged text' });
    expect((await t.rest('POST', `${crPath(b.spaceId, merged.id)}/merge`, { token: acme.admin.token })).body.result).toBe('merge');
    const again = await t.rest('POST', `${crPath(b.spaceId, merged.id)}/merge`, { token: acme.admin.token });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toMatch(/merged/);
    expect((await t.rest('PATCH', crPath(b.spaceId, merged.id), { token: acme.admin.token, body: { status: 'open' } })).status).toBe(409);
    // Reopening an archived one works, and then it merges.
    expect((await t.rest('PATCH', crPath(b.spaceId, archived.id), { token: acme.admin.token, body: { status: 'open', subject: 'Back' } })).body.status).toBe('open');
  });

  it('refuses a change request of another space or organization, as if missing', async () => {
    const b = await bench();
    const c = await bench();
    const cr = await b.openChangeRequest();
    expect((await t.rest('GET', crPath(c.spaceId, cr.id), { token: acme.admin.token })).status).toBe(404);
    const wrongSpace = await t.graphql(
      'mutation ($input: PageUpdateInput!) { pageUpdate(input: $input) { userErrors { code field message } } }',
      { input: { pageId: c.page('Intro'), changeRequestId: cr.gid, markdown: 'x' } },
      acme.admin.token,
    );
    expect(wrongSpace.body.data.pageUpdate.userErrors).toEqual([expect.objectContaining({ field: ['changeRequestId'] })]);
    const foreign = await t.rest('GET', crPath(b.spaceId, cr.id), { token: other.admin.token });
    const missing = await t.rest('GET', crPath('doesNotExist00000000', cr.id), { token: other.admin.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(missing.body);
    const node = await t.graphql('query ($id: ID!) { node(id: $id) { id } }', { id: cr.gid }, other.admin.token);
    expect(node.body.data.node).toBeNull();
    await refused('changeRequestMerge', { changeRequestId: cr.gid }, other.admin.token, 'NOT_FOUND');
    await refused('changeRequestMerge', { changeRequestId: gid('ChangeRequest', 'doesNotExist00000000') }, other.admin.token, 'NOT_FOUND');
  });
});

describe('the order of refusals', () => {
  it('answers a missing change request with 404 before the role or the input is checked, through both doors', async () => {
    const b = await bench();
    await b.openChangeRequest();
    const missing = crPath(b.spaceId, 'doesNotExist00000000');
    for (const [method, path, body] of [['PATCH', missing, { status: 'open' }], ['POST', `${missing}/update`, undefined], ['POST', `${missing}/merge`, undefined]] as const) {
      const res = await t.rest(method, path, { token: people.reader.token, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error.message).toMatch(/change request/i);
    }
    expect((await t.rest('PATCH', missing, { token: people.editor.token, body: { status: 'nonsense' } })).status).toBe(404);
    const absent = gid('ChangeRequest', 'doesNotExist00000000');
    for (const name of ['changeRequestUpdate', 'changeRequestUpdateFromSpace', 'changeRequestMerge']) await refused(name, { changeRequestId: absent }, people.reader.token, 'NOT_FOUND');
  });
});

describe('outdated and update from the space', () => {
  it('flags every open change request outdated once the space moves, and update brings the changes in', async () => {
    const b = await bench();
    const first = await b.openChangeRequest('First');
    const second = await b.openChangeRequest('Second');
    await b.editor(first).update('Intro', { markdown: 'one\n\ntwo, from first' });
    await b.editor(second).create('Appendix', { markdown: 'more' });
    const outdated = async (cr: { id: string }) => (await t.rest('GET', crPath(b.spaceId, cr.id), { token: acme.admin.token })).body.outdated;
    expect([await outdated(first), await outdated(second)]).toEqual([false, false]);

    const merged = await t.rest('POST', `${crPath(b.spaceId, first.id)}/merge`, { token: acme.admin.token });
    expect(merged.body.result).toBe('merge');
    expect(await outdated(second)).toBe(true);

    const crBefore = (await t.rest('GET', crPath(b.spaceId, second.id), { token: acme.admin.token })).body.revision;
    const updated = await t.rest('POST', `${crPath(b.spaceId, second.id)}/update`, { token: acme.admin.token });
    expect(updated.status).toBe(200);
    expect(updated.body.result).toBe('update');
    const after = (await t.rest('GET', crPath(b.spaceId, second.id), { token: acme.admin.token })).body;
    expect(after).toMatchObject({ outdated: false, revisionMergedAncestor: merged.body.revision, revision: updated.body.revision });
    expect(await b.outline(second)).toBe('Intro, Appendix');
    expect((await b.pagesByTitle(second)).Intro.markdown).toBe('one\n\ntwo, from first');
    const revision = await b.revision(second);
    expect(revision).toMatchObject({ id: after.revision, type: 'update', parents: [crBefore, merged.body.revision] });

    // Updating again changes nothing; merging now goes cleanly from the new base.
    expect((await t.rest('POST', `${crPath(b.spaceId, second.id)}/update`, { token: acme.admin.token })).body).toEqual({ revision: updated.body.revision, result: 'update' });
    expect((await t.rest('POST', `${crPath(b.spaceId, second.id)}/merge`, { token: acme.admin.token })).body.result).toBe('merge');
    expect(await b.outline()).toBe('Intro, Appendix');
  });

  it('answers conflicts on update and writes nothing', async () => {
    const b = await bench();
    const cr = await b.openChangeRequest('Clash');
    await b.editor(cr).update('Intro', { markdown: 'one\n\nTWO (proposed)' });
    await b.space.update('Intro', { markdown: 'one\n\nTWO (current)' });
    const before = await t.rest('GET', crPath(b.spaceId, cr.id), { token: acme.admin.token });
    const res = await t.rest('POST', `${crPath(b.spaceId, cr.id)}/update`, { token: acme.admin.token });
    expect(res.body).toEqual({ revision: before.body.revision, result: 'conflicts' });
    expect((await t.rest('GET', crPath(b.spaceId, cr.id), { token: acme.admin.token })).body).toMatchObject({ revision: before.body.revision, outdated: true });
    const payload = await succeed('changeRequestUpdateFromSpace', { changeRequestId: cr.gid }, 'result conflicts { kind title base current proposed }');
    expect(payload).toMatchObject({ result: 'CONFLICTS', conflicts: [{ kind: 'CONTENT', title: 'Intro', base: 'one\n\ntwo', current: 'one\n\nTWO (current)', proposed: 'one\n\nTWO (proposed)' }] });
  });
});

describe('GraphQL', () => {
  it('creates, edits, reviews and merges a change request', async () => {
    const b = await bench();
    const created = await succeed('changeRequestCreate', { spaceId: b.spaceGid, subject: 'Through GraphQL' }, 'changeRequest { id number status subject outdated revision { restId } }');
    expect(created.changeRequest).toMatchObject({ number: 1, status: 'DRAFT', subject: 'Through GraphQL', outdated: false });
    const cr = { id: '', number: 1, gid: created.changeRequest.id };
    await b.editor(cr).update('Intro', { markdown: 'one\n\ntwo\n\nthree' });
    await b.editor(cr).create('New page', { markdown: 'hello' });
    const opened = await succeed('changeRequestUpdate', { changeRequestId: cr.gid, status: 'OPEN' }, 'changeRequest { status }');
    expect(opened.changeRequest.status).toBe('OPEN');

    const review = await t.graphql(
      `query ($id: ID!) { node(id: $id) { ... on ChangeRequest { changes { kinds title diff } conflicts { kind } createdBy { displayName } } } }`,
      { id: cr.gid },
      people.reader.token,
    );
    const changes = review.body.data.node.changes;
    expect(changes.map((c: any) => [c.title, c.kinds])).toEqual(expect.arrayContaining([['Intro', ['MODIFIED']], ['New page', ['ADDED']]]));
    expect(changes.find((c: any) => c.title === 'Intro').diff).toMatch(/^\+three$/m);
    expect(review.body.data.node.conflicts).toEqual([]);

    const merged = await succeed('changeRequestMerge', { changeRequestId: cr.gid }, 'result revision { restId type parents } changeRequest { status revisionMerged { restId } }');
    expect(merged).toMatchObject({ result: 'MERGED', revision: { type: 'merge' }, changeRequest: { status: 'MERGED', revisionMerged: { restId: merged.revision.restId } } });
    expect(await b.outline()).toBe('Intro, New page');
  });

  it('merges the edits made earlier in the same document', async () => {
    const b = await bench();
    const cr = await b.openChangeRequest();
    const res = await t.graphql(
      `mutation ($edit: PageUpdateInput!, $merge: ChangeRequestMergeInput!) {
        pageUpdate(input: $edit) { userErrors { code message } }
        changeRequestMerge(input: $merge) { userErrors { code message } result changeRequest { status } }
      }`,
      { edit: { pageId: b.page('Intro'), changeRequestId: cr.gid, markdown: 'one\n\ntwo, edited then merged' }, merge: { changeRequestId: cr.gid } },
      acme.admin.token,
    );
    expect(res.body.errors, JSON.stringify(res.body)).toBeUndefined();
    expect(res.body.data.changeRequestMerge).toEqual({ userErrors: [], result: 'MERGED', changeRequest: { status: 'MERGED' } });
    expect((await b.pagesByTitle()).Intro.markdown).toBe('one\n\ntwo, edited then merged');
  });

  it('needs the edit role to create or merge, and a reader is told so', async () => {
    const b = await bench();
    const cr = await b.openChangeRequest();
    await refused('changeRequestCreate', { spaceId: b.spaceGid }, people.reader.token, 'FORBIDDEN');
    await refused('changeRequestMerge', { changeRequestId: cr.gid }, people.reader.token, 'FORBIDDEN');
    expect((await t.rest('GET', crPath(b.spaceId, cr.id), { token: acme.admin.token })).body.status).toBe('draft');
  });
});
