import { builder } from '../../../graphql/builder';
import type { OrganizationRow } from '../table';

export const OrganizationRef = builder.objectRef<OrganizationRow>('Organization');
