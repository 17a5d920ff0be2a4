import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { is } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import drizzleConfig from '../../drizzle.config';
import { TABLE_TENANCY } from '../../src/db/tenancy';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { analyzeStatement, loadCatalog, loadParser, type Catalog } from '../support/tenant-scope';

/**
 * The classification of src/db/tenancy.ts against the schema: every table drizzle knows and every
 * table the migrations made is classified, and each class holds what it says. Then the checker
 * that test/app/tenant-scoping.test.ts runs over every statement, on statements written to pass
 * and to fail.
 */
let database: TestDatabase;
let catalog: Catalog;

beforeAll(async () => {
  database = await createTestDatabase();
  catalog = await loadCatalog(database.db);
  await loadParser();
});
afterAll(() => database.close());

/** The files drizzle-kit reads the schema from, by the globs of drizzle.config.ts. */
function schemaFiles(): string[] {
  const globs = ([] as string[]).concat(drizzleConfig.schema ?? []).map((glob) => new RegExp(`^${glob.replace(/^\.\//, '').replace(/\./g, '\\.').replace(/\*/g, '[^/]*')}$`));
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (globs.some((g) => g.test(relative(process.cwd(), path)))) files.push(path);
    }
  };
  walk(join(process.cwd(), 'src'));
  return files;
}

describe('the tenancy of every table', () => {
  it('classifies every table of the drizzle schema, and names no other', async () => {
    const files = schemaFiles();
    expect(files.length).toBeGreaterThan(15);
    const tables = new Set<string>();
    for (const file of files) {
      for (const value of Object.values(await import(file))) if (is(value, PgTable)) tables.add(getTableConfig(value).name);
    }
    const unclassified = [...tables].filter((name) => !TABLE_TENANCY[name]);
    expect(unclassified, 'add these tables to src/db/tenancy.ts').toEqual([]);
    expect(Object.keys(TABLE_TENANCY).filter((name) => !tables.has(name) && !catalog.has(name))).toEqual([]);
  });

  it('classifies every table the migrations made, hand-written ones included', () => {
    expect([...catalog.keys()].filter((name) => !TABLE_TENANCY[name])).toEqual([]);
    expect([...catalog.keys()]).toEqual(expect.arrayContaining(['search_sections', 'search_spaces']));
  });

  it('holds each class to what it says', () => {
    const problems: string[] = [];
    for (const [name, tenancy] of Object.entries(TABLE_TENANCY)) {
      const info = catalog.get(name)!;
      const hasOrgColumn = info.columns.has('organization_id');
      if (tenancy.scope === 'global' && hasOrgColumn) problems.push(`${name} is global but has organization_id`);
      if (tenancy.scope === 'organization' && !hasOrgColumn && name !== 'organizations') problems.push(`${name} has no organization_id`);
      if (tenancy.scope === 'parent') {
        if (hasOrgColumn) problems.push(`${name} has organization_id: classify it as organization`);
        for (const parent of tenancy.parents) {
          if (TABLE_TENANCY[parent]?.scope === 'global' || !TABLE_TENANCY[parent]) problems.push(`${name}: parent ${parent} is not per organization`);
          if (!info.references.some((r) => r.table === parent)) problems.push(`${name}: no foreign key to ${parent}`);
        }
      }
      if (tenancy.scope !== 'global' && info.keys.length === 0) problems.push(`${name}: no tenant key`);
    }
    expect(problems).toEqual([]);
  });
});

describe('the tenant-scope checker', () => {
  const unpinned = (text: string) => analyzeStatement(text, catalog).unpinned;

  it('accepts statements pinned by organization, primary key or parent, through joins and subqueries', () => {
    const pinned = [
      'select * from spaces where organization_id = $1 and deleted_at is null order by created_at limit 50',
      'select "spaces"."id" from "spaces" where "spaces"."id" = any($1)',
      'select s.id, c.title from spaces s left join collections c on c.id = s.parent_id where s.organization_id = $1',
      'select r.* from revisions r join spaces s on s.id = r.space_id where s.id = $1::text',
      'select * from comments where change_request_id = $1 or change_request_id = $2',
      'select * from organization_members where organization_id = $1 and user_id in ($2, $3)',
      'select k.id, t.* from unnest($1::text[]) as k(id) cross join lateral (select * from teams where teams.organization_id = k.id limit 5) t',
      'select * from spaces s where s.id in (select space_id from content_grants g where g.organization_id = $1 and g.user_id = $2)',
      'with mine as (select id from spaces where organization_id = $1) select count(*) from change_requests cr join mine on mine.id = cr.space_id',
      'insert into spaces (id, organization_id, title) values ($1, $2, $3), ($4, $5, $6) on conflict (id) do update set title = excluded.title',
      'update team_members set role = $1 where team_id = $2 and user_id = $3',
      'delete from site_spaces ss using sites s where s.id = ss.site_id and s.organization_id = $1',
      'select * from users where id = $1',
    ];
    expect(pinned.map((text) => [text, unpinned(text)]).filter(([, tables]) => tables.length)).toEqual([]);
  });

  it('names the tables a statement reaches across organizations', () => {
    expect(unpinned('select * from spaces where deleted_at < $1')).toEqual(['spaces']);
    expect(unpinned('select * from spaces where organization_id = $1 or visibility = $2')).toEqual(['spaces']);
    expect(unpinned('select * from spaces where not (organization_id = $1)')).toEqual(['spaces']);
    // A membership row is pinned by its whole primary key, not by the user alone.
    expect(unpinned('select o.* from organizations o join organization_members m on m.organization_id = o.id where m.user_id = $1')).toEqual(['organization_members', 'organizations']);
    // An outer join's ON pins only its right side.
    expect(unpinned('select * from spaces s left join collections c on c.organization_id = $1 and s.organization_id = $1')).toEqual(['spaces']);
    expect(unpinned('select * from spaces s where s.id in (select space_id from content_grants where user_id = $1)')).toEqual(['content_grants', 'spaces']);
    expect(unpinned('update spaces set title = lower(title) where lower(id) = $1')).toEqual(['spaces']);
    expect(unpinned("insert into teams (id, title) select id, 'copy' from teams")).toEqual(['teams']);
  });
});
