import { anyOf } from '../../db/any';
import { defineLoader } from '../../db/loader';
import { byKey } from '../../lib/loaders';
import { translations, type TranslationRow } from '../../db/schema/translations';

/** Translations by id; services check the organization they belong to. */
export const translationById = defineLoader<string, TranslationRow>('translationById', async (db, ids) =>
  byKey(ids, await db.select().from(translations).where(anyOf(translations.id, ids)), (r) => r.id),
);
