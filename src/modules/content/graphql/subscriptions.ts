import { builder } from '../../../graphql/builder';
import { enumValues } from '../../../graphql/enums';
import type { RevisionType } from '../../../db/schema/revisions';
import { SpaceRef } from '../../spaces/graphql/refs';
import { spaceContentEventRevision, watchSpaceContent, type SpaceContentLiveEvent } from '../service';
import { RevisionRef } from './refs';

// Every type a revision may have, in the platform's words; this server writes edits and merges to spaces.
const KIND_DESCRIPTIONS: Record<RevisionType, string> = {
  edits: 'Edited: pages or files changed, through the API, an import or a template.',
  merge: 'A change request was merged into it.',
  update: 'Brought up to date from another revision.',
  rollback: 'Rolled back to an earlier revision.',
  computed: 'Its computed pages were computed again from their source.',
};

const SpaceContentEventKindEnum = builder.enumType('SpaceContentEventKind', {
  description: "How a space's new revision came to be.",
  values: enumValues(Object.keys(KIND_DESCRIPTIONS) as RevisionType[], (type) => KIND_DESCRIPTIONS[type]),
});

const SpaceContentEventRef = builder.objectRef<SpaceContentLiveEvent>('SpaceContentEvent').implement({
  description: "A new revision of a space's content, as it reaches a subscriber.",
  fields: (t) => ({
    kind: t.field({ type: SpaceContentEventKindEnum, description: 'How the revision came to be.', resolve: (e) => e.kind }),
    revisionId: t.string({ description: 'REST id of the new revision.', resolve: (e) => e.revisionId }),
    revision: t.field({ type: RevisionRef, description: 'The new revision: its pages and files.', resolve: (e, _, ctx) => spaceContentEventRevision(ctx, e) }),
    space: t.field({ type: SpaceRef, description: 'The space as it is now.', resolve: (e) => e.space }),
  }),
});

builder.subscriptionField('spaceContentEvents', (t) =>
  t.field({
    type: SpaceContentEventRef,
    description: "Each new revision of a space's own content (an edit, a merge, an import...), from every instance; change requests' own edits are in changeRequestEvents. Reading the content is checked again at each event: losing it ends the stream.",
    args: { spaceId: t.arg.globalID({ for: SpaceRef, required: true, description: 'The space.' }) },
    subscribe: (_root, args, ctx) => watchSpaceContent(ctx, args.spaceId.id, ctx.signal),
    resolve: (event) => event,
  }),
);
