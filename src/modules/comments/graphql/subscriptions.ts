import { builder } from '../../../graphql/builder';
import { ChangeRequestRef } from '../../change-requests/graphql/refs';
import { SpaceRef } from '../../spaces/graphql/refs';
import { watchDiscussion } from '../service';
import { CommentEventRef } from './refs';

builder.subscriptionField('commentEvents', (t) =>
  t.field({
    type: CommentEventRef,
    description: 'Comments posted, edited, reacted to, resolved, reopened, replied to or deleted in a discussion, from every instance. Each event carries the comment as it is at that moment. Access is checked again at each event: losing it ends the stream.',
    args: {
      spaceId: t.arg.globalID({ for: SpaceRef, required: true, description: 'The space.' }),
      changeRequestId: t.arg.globalID({ for: ChangeRequestRef, description: "One of its change requests, for that discussion rather than the space's own." }),
      pageId: t.arg.string({ description: 'Only comments about this page (REST id).' }),
    },
    subscribe: (_root, args, ctx) => watchDiscussion(ctx, args.spaceId.id, args.changeRequestId?.id, args.pageId ?? undefined, ctx.signal),
    resolve: (event) => event,
  }),
);
