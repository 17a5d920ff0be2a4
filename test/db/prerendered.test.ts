import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { visibleCollections, visibleSpaces } from '../../src/access-control/visibility';
import { prerendered } from '../../src/db/prerendered';

const dialect = new PgDialect({ casing: 'snake_case' });
const render = (filter: ReturnType<typeof sql>) => dialect.sqlToQuery(sql`select id from spaces where id = ${'first'} and ${filter} and id <> ${'last'}`);

describe('prerendered SQL', () => {
  it('renders the very statement the chunk tree did, parameters numbered in place, for the visibility filters', () => {
    for (const filter of [visibleSpaces('user-1', ['org-1', 'org-2']), visibleCollections('user-2', ['org-3'])]) {
      const tree = render(filter);
      const flat = render(prerendered(filter));
      expect(flat.sql).toBe(tree.sql);
      expect(flat.params).toEqual(tree.params);
      expect(flat.params[0]).toBe('first');
      expect(flat.params.at(-1)).toBe('last');
    }
  });

  it('keeps SQL whose parameters it could not follow as it was', () => {
    const odd = sql.raw('select $2, $1');
    expect(prerendered(odd)).toBe(odd);
  });
});
