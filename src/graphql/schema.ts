import { builder } from './builder';
import './errors';
import '../modules/users/graphql';
import '../modules/organizations/graphql';
import '../modules/members/graphql';
import '../modules/teams/graphql';
import '../modules/invites/graphql';
import '../modules/permissions/graphql';
import '../modules/collections/graphql';
import '../modules/spaces/graphql';
import '../modules/content/graphql';
import '../modules/change-requests/graphql';
import '../modules/comments/graphql';
import '../modules/sites/graphql';
import '../modules/saml/graphql';
import '../modules/translations/graphql';
import '../modules/openapi/graphql';

export const schema = builder.toSchema({ sortSchema: true });
