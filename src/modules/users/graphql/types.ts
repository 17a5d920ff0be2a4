import { builder } from '../../../graphql/builder';
import { orNull } from '../../../graphql/errors';
import { getUser, userEmail } from '../service';
import { UserRef } from './refs';

builder.node(UserRef, {
  description: 'A person with an account.',
  id: { resolve: (u) => u.id },
  loadOne: (id, ctx) => orNull(getUser(ctx, id)),
  fields: (t) => ({
    restId: t.exposeString('id', { description: 'The id of this user in the REST API (`/v1/users/{userId}`).' }),
    displayName: t.exposeString('displayName', { description: 'Full name of the user.' }),
    email: t.string({
      nullable: true,
      description: 'E-mail address of the user: null unless the viewer is this user or an active member of an organization they belong to.',
      resolve: (user, _args, ctx) => userEmail(ctx, user),
    }),
    photoUrl: t.exposeString('photoUrl', { nullable: true, description: "URL of the user's picture, when they have one." }),
  }),
});
