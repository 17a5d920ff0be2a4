import { builder } from '../../../graphql/builder';
import type { SamlProviderRow } from '../../../db/schema/saml';

export const SamlProviderRef = builder.objectRef<SamlProviderRow>('SamlProvider');
