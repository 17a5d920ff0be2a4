import { builder } from '../../../graphql/builder';
import type { IntegrationRow } from '../../../db/schema/integrations';

export const IntegrationRef = builder.objectRef<IntegrationRow>('Integration');
