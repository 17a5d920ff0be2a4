import { builder } from '../../../graphql/builder';
import type { FieldMap } from '../../../graphql/errors';
import { CollectionRef } from '../../collections/graphql/refs';
import { SpaceRef } from '../../spaces/graphql/refs';
import type { PositionInput } from '../input';

/** Spaces and collections share one order under a parent, so a position may point at either. */
export const ContentPositionInput = builder.inputType('ContentPositionInput', {
  description:
    'Where to put a space or collection among the spaces and collections of its parent, which share one order. Give ' +
    '`afterId`, `beforeId`, or both when they are neighbours; with neither it goes last.',
  fields: (t) => ({
    beforeId: t.globalID({ for: [SpaceRef, CollectionRef], description: 'Put it right before this space or collection, a child of the same parent.' }),
    afterId: t.globalID({ for: [SpaceRef, CollectionRef], description: 'Put it right after this space or collection, a child of the same parent.' }),
  }),
});

type DecodedID = { typename: string; id: string };

const ref = (g: DecodedID) => ({ kind: g.typename === 'Space' ? ('space' as const) : ('collection' as const), id: g.id });

/** A ContentPositionInput as the position the services take. */
export function positionFromInput(position: { beforeId?: DecodedID | null; afterId?: DecodedID | null }): PositionInput {
  return { ...(position.beforeId ? { before: ref(position.beforeId) } : {}), ...(position.afterId ? { after: ref(position.afterId) } : {}) };
}

/** Where the move and transfer inputs of the services sit in the GraphQL inputs. */
export const MOVE_FIELDS: FieldMap = { parent: 'parentId', organization: 'organizationId', 'position.before': 'position.beforeId', 'position.after': 'position.afterId' };
