import { builder } from '../../../graphql/builder';
import { orNull } from '../../../graphql/errors';
import { getUser } from '../service';
import { UserRef } from './refs';

builder.node(UserRef, {
  description: 'A person with an account.',
  id: { resolve: (u) => u.id },
  loadOne: (id, ctx) => orNull(getUser(ctx, id)),
  fields: (t) => ({
    restId: t.exposeString('id', { description: 'The id of this user in the REST API (`/v1/users/{userId}`).' }),
    displayName: t.exposeString('displayName', { description: 'Full name of the user.' }),
    email: t.exposeString('email', { description: 'E-mail address of the user.' }),
    photoUrl: t.exposeString('photoUrl', { nullable: true, description: "URL of the user's picture, when they have one." }),
  }),
});
