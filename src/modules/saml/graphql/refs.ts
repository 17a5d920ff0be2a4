import { builder } from '../../../graphql/builder';
import type { SamlProviderRow } from '../table';

export const SamlProviderRef = builder.objectRef<SamlProviderRow>('SamlProvider');
