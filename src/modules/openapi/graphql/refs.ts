import { builder } from '../../../graphql/builder';
import type { SpecInOrganization } from '../service';

export const OpenApiSpecRef = builder.objectRef<SpecInOrganization>('OpenAPISpec');
