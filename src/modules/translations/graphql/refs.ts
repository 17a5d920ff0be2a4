import { builder } from '../../../graphql/builder';
import type { TranslationRow } from '../../../db/schema/translations';

export const TranslationRef = builder.objectRef<TranslationRow>('Translation');
