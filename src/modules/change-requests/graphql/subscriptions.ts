import { builder } from '../../../graphql/builder';
import { SpaceRef } from '../../spaces/graphql/refs';
import { watchChangeRequests, type ChangeRequestLiveEvent } from '../service';
import { ChangeRequestRef } from './refs';

const ChangeRequestEventKindEnum = builder.enumType('ChangeRequestEventKind', {
  description: 'What happened to a change request.',
  values: {
    CREATED: { value: 'created' as const, description: 'It was created, as a draft.' },
    EDITED: { value: 'edited' as const, description: 'Its subject changed.' },
    CONTENT_UPDATED: { value: 'contentUpdated' as const, description: 'Its content moved to a new revision: an edit of its pages or files, or an update from the space.' },
    STATUS_CHANGED: { value: 'statusChanged' as const, description: 'Its status changed: opened, back to draft, archived or merged (its subject may have changed with it).' },
  },
});

const ChangeRequestEventRef = builder.objectRef<ChangeRequestLiveEvent>('ChangeRequestEvent').implement({
  description: 'A change to a change request, as it reaches a subscriber.',
  fields: (t) => ({
    kind: t.field({ type: ChangeRequestEventKindEnum, description: 'What happened.', resolve: (e) => e.kind }),
    changeRequestId: t.string({ description: 'REST id of the change request.', resolve: (e) => e.changeRequest.row.id }),
    changeRequest: t.field({ type: ChangeRequestRef, description: 'The change request as it is now, read with your rights of now.', resolve: (e) => e.changeRequest }),
  }),
});

builder.subscriptionField('changeRequestEvents', (t) =>
  t.field({
    type: ChangeRequestEventRef,
    description: "Change requests of a space created, edited, updated in content or changing status (merged included), from every instance. Access to the space is checked again at each event: losing it ends the stream.",
    args: {
      spaceId: t.arg.globalID({ for: SpaceRef, required: true, description: 'The space.' }),
      changeRequestId: t.arg.globalID({ for: ChangeRequestRef, description: 'Only this change request of the space.' }),
    },
    subscribe: (_root, args, ctx) => watchChangeRequests(ctx, args.spaceId.id, args.changeRequestId?.id, ctx.signal),
    resolve: (event) => event,
  }),
);
