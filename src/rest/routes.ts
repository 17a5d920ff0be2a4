import { collectionRoutes } from '../modules/collections/rest';
import { integrationRoutes } from '../modules/integrations/rest';
import { contentRoutes } from '../modules/content/rest';
import { changeRequestRoutes } from '../modules/change-requests/rest';
import { commentRoutes } from '../modules/comments/rest';
import { inviteRoutes } from '../modules/invites/rest';
import { memberRoutes } from '../modules/members/rest';
import { organizationRoutes } from '../modules/organizations/rest';
import { permissionRoutes } from '../modules/permissions/rest';
import { publishedRoutes } from '../modules/published/rest';
import { samlRoutes } from '../modules/saml/rest';
import { siteRoutes } from '../modules/sites/rest';
import { spaceRoutes } from '../modules/spaces/rest';
import { teamRoutes } from '../modules/teams/rest';
import { translationRoutes } from '../modules/translations/rest';
import { userRoutes } from '../modules/users/rest';
import { RestRouter } from './router';

export function createRestRouter(): RestRouter {
  const router = new RestRouter();
  userRoutes(router);
  organizationRoutes(router);
  memberRoutes(router);
  teamRoutes(router);
  inviteRoutes(router);
  collectionRoutes(router);
  spaceRoutes(router);
  permissionRoutes(router);
  contentRoutes(router);
  changeRequestRoutes(router);
  integrationRoutes(router);
  commentRoutes(router);
  siteRoutes(router);
  publishedRoutes(router);
  samlRoutes(router);
  translationRoutes(router);
  return router;
}
