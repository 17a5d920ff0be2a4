import { builder } from '../../../graphql/builder';
import type { IntegrationRow } from '../table';

export const IntegrationRef = builder.objectRef<IntegrationRow>('Integration');
