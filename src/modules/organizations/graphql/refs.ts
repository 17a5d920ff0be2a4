import { builder } from '../../../graphql/builder';
import type { OrganizationRow } from '../../../db/schema/organizations';

export const OrganizationRef = builder.objectRef<OrganizationRow>('Organization');
