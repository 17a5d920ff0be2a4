import { builder } from '../../../graphql/builder';
import { RevisionChangeRef } from '../../content/graphql/refs';
import { MAX_CHANGES } from '../../content/service';
import { changeRequestSemanticChanges } from '../service';
import { ChangeRequestRef } from './refs';

/* `ChangeRequest.semanticChanges`: the twin of `GET /v1/spaces/{id}/change-requests/{id}/changes`. */

builder.objectField(ChangeRequestRef, 'semanticChanges', (t) =>
  t.field({
    type: [RevisionChangeRef],
    description: `What the change request changes from its base, as notifications and the published preview tell it: pages, then files, then variables. At most \`limit\` (1 to ${MAX_CHANGES}).`,
    args: { limit: t.arg.int({ defaultValue: 10, description: `How many changes to list, 1 to ${MAX_CHANGES}.` }) },
    resolve: async (cr, { limit }, ctx) => {
      const { content, changes } = await changeRequestSemanticChanges(ctx, cr, { limit: limit ?? 10 });
      return changes.map((change) => ({ content, change }));
    },
  }),
);
