import { anyOf } from '../../db/any';
import { defineLoader } from '../../db/loader';
import { byKey } from '../../lib/loaders';
import { sites, type SiteRow } from './table';

export const siteById = defineLoader<string, SiteRow>('siteById', async (db, ids) => byKey(ids, await db.select().from(sites).where(anyOf(sites.id, ids)), (s) => s.id));
