import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { JobQueue } from '../../src/jobs/queue';
import { revisions } from '../../src/db/schema/revisions';
import { spaces } from '../../src/db/schema/spaces';
import { startTestApp, type TestApp } from '../support/clients';
import { buildOrganization, type OrgFixture } from '../support/factories';
import { startTestJobs } from '../support/jobs';

const DAY = 86_400_000;

let t: TestApp;
let jobs: JobQueue;
let acme: OrgFixture;
const logged: string[] = [];
beforeAll(async () => {
  t = await startTestApp();
  jobs = await startTestJobs(t, (message) => logged.push(message));
  acme = await buildOrganization(t.db, 'Acme');
});
afterAll(async () => {
  await jobs?.stop();
  await t?.close();
});
beforeEach(() => {
  t.clock.now = null;
});

const at = (days: number) => new Date(Date.now() + days * DAY);

async function createSpace(title: string): Promise<string> {
  const res = await t.rest('POST', `/v1/orgs/${acme.organizationId}/spaces`, { token: acme.admin.token, body: { title } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

async function deleteSpace(id: string): Promise<void> {
  expect((await t.rest('DELETE', `/v1/spaces/${id}`, { token: acme.admin.token })).status).toBe(204);
}

const restore = (id: string) => t.rest('POST', `/v1/spaces/${id}/restore`, { token: acme.admin.token });

async function listedTitles(): Promise<string[]> {
  const res = await t.rest('GET', `/v1/orgs/${acme.organizationId}/spaces`, { token: acme.admin.token });
  expect(res.status).toBe(200);
  return res.body.items.map((s: { title: string }) => s.title);
}

async function rowsOf(ids: string[]) {
  const space = await t.db.select({ id: spaces.id }).from(spaces).where(inArray(spaces.id, ids));
  const revision = await t.db.select({ spaceId: revisions.spaceId }).from(revisions).where(inArray(revisions.spaceId, ids));
  return { spaces: space.map((r) => r.id).sort(), revisions: [...new Set(revision.map((r) => r.spaceId))].sort() };
}

describe('deleted spaces', () => {
  it('vanish from the list, answer GET with deletedAt in their restore window, and restore finds them', async () => {
    const id = await createSpace('Trashed');
    await deleteSpace(id);
    expect(await listedTitles()).not.toContain('Trashed');
    const trashed = await t.rest('GET', `/v1/spaces/${id}`, { token: acme.admin.token });
    expect(trashed.status).toBe(200);
    expect(trashed.body.deletedAt).toEqual(expect.any(String));

    const res = await restore(id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.id).toBe(id);
    expect((await t.rest('GET', `/v1/spaces/${id}`, { token: acme.admin.token })).status).toBe(200);
  });

  it('can be restored six days after deletion', async () => {
    const id = await createSpace('Six days');
    await deleteSpace(id);
    t.clock.now = at(6);
    expect(await listedTitles()).not.toContain('Six days');

    const res = await restore(id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await listedTitles()).toContain('Six days');
  });

  it('are purged by the scheduled job once the seven days are over, and not before', async () => {
    const live = await createSpace('Live');
    const old = await createSpace('Eight days');
    await deleteSpace(old);
    t.clock.now = at(7);
    const recent = await createSpace('One day');
    await deleteSpace(recent);
    t.clock.now = at(8);

    // Past the window, restore refuses, yet nothing is gone until the job runs.
    expect((await restore(old)).status).toBe(404);
    const all = [live, old, recent].sort();
    expect(await rowsOf(all)).toEqual({ spaces: all, revisions: all });

    const output = await jobs.runNow('purge-deleted-spaces');
    expect(output).toEqual({ purged: [old] });
    expect(logged).toContain('purge-deleted-spaces: purged 1 deleted space');

    expect(await rowsOf([old])).toEqual({ spaces: [], revisions: [] });
    expect(await rowsOf([live, recent])).toEqual({ spaces: [live, recent].sort(), revisions: [live, recent].sort() });
    const [kept] = await t.db.select({ deletedAt: spaces.deletedAt }).from(spaces).where(eq(spaces.id, recent));
    expect(kept.deletedAt).not.toBeNull();
    expect(await listedTitles()).toContain('Live');
    expect((await restore(recent)).status).toBe(200);
  });

  it('are purged on an hourly schedule kept in pg-boss', async () => {
    const { rows } = await t.database.executeSql("select name, cron from pgboss.schedule where name = 'purge-deleted-spaces'");
    expect(rows).toEqual([{ name: 'purge-deleted-spaces', cron: '0 * * * *' }]);
  });
});

describe('the job queue', () => {
  it('sends its statements past the statement counter, which counts only the app', async () => {
    const before = t.database.counter.count;
    await t.database.executeSql('select 1 as one');
    // Two polls of the purge worker at 0.5 s.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(t.database.counter.count).toBe(before);
  });
});
