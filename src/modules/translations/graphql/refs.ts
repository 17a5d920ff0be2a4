import { builder } from '../../../graphql/builder';
import type { TranslationRow } from '../table';

export const TranslationRef = builder.objectRef<TranslationRow>('Translation');
