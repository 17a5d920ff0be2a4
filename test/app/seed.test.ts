import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedDemoIfEmpty, type DemoData } from '../../src/app/seed';
import { startTestApp, type TestApp } from '../support/clients';

let t: TestApp;
let demo: DemoData;
beforeAll(async () => {
  t = await startTestApp();
  demo = (await seedDemoIfEmpty(t.db))!;
});
afterAll(() => t.close());

it('creates a demo organization with a collection, spaces and grants, once', async () => {
  const token = demo.token;
  const collections = await t.rest('GET', `/v1/orgs/${demo.organizationId}/collections`, { token });
  expect(collections.body.items.map((c: any) => c.title)).toEqual(['Handbook']);
  const spaces = await t.rest('GET', `/v1/orgs/${demo.organizationId}/spaces`, { token });
  expect(spaces.body.items.map((s: any) => s.title)).toEqual(['Getting started', 'Drafts', 'API reference']);
  const drafts = spaces.body.items[1];
  expect(drafts).toMatchObject({ parent: collections.body.items[0].id, visibility: 'in-collection', defaultLevel: null });
  const teams = await t.rest('GET', `/v1/spaces/${drafts.id}/permissions/teams`, { token });
  expect(teams.body.items.map((i: any) => [i.team.title, i.permission])).toEqual([['Writers', 'edit']]);
  expect(await seedDemoIfEmpty(t.db)).toBeNull();
});
