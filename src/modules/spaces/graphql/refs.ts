import { builder } from '../../../graphql/builder';
import { totalCountField } from '../../../graphql/relay';
import type { SpaceRow } from '../../../db/schema/spaces';

export const SpaceRef = builder.objectRef<SpaceRow>('Space');

/** One connection type for the spaces of an organization and of a collection. */
export const SpaceConnection = builder.connectionObject(
  { type: SpaceRef, name: 'SpaceConnection', description: 'A page of spaces.', fields: totalCountField },
  { name: 'SpaceEdge', description: 'A space in a page, with its cursor.' },
);
