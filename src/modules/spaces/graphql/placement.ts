import type { ObjectRef } from '@pothos/core';
import type { RequestContext } from '../../../context/request-context';
import { builder, type BuilderTypes } from '../../../graphql/builder';
import { CollectionRef } from '../../collections/graphql/refs';
import { moveCollection, transferCollection } from '../../collections/service';
import { MOVE_FIELDS } from '../../placement/graphql/refs';
import type { MoveInput, PositionInput, TransferInput } from '../../placement/service';
import { moveSpace, transferSpace } from '../service';
import { SpaceRef } from './refs';
import { defineMutation } from '../../../graphql/mutation';
import { OrganizationRef } from '../../organizations/graphql/refs';

/*
 * Moves of spaces and collections, which share one order under a parent: the position input and
 * the move and transfer mutations of both. They live here, with the higher of the two modules,
 * because a position may point at either.
 */

/** Spaces and collections share one order under a parent, so a position may point at either. */
const ContentPositionInput = builder.inputType('ContentPositionInput', {
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
function positionFromInput(position: { beforeId?: DecodedID | null; afterId?: DecodedID | null }): PositionInput {
  return { ...(position.beforeId ? { before: ref(position.beforeId) } : {}), ...(position.afterId ? { after: ref(position.afterId) } : {}) };
}


interface MovableContent<Row> {
  /** Names the mutations (`spaceMove`), their id field (`spaceId`) and their payload field (`space`). */
  noun: 'space' | 'collection';
  ref: ObjectRef<BuilderTypes, Row>;
  move: (ctx: RequestContext, id: string, input: MoveInput) => Promise<Row>;
  transfer: (ctx: RequestContext, id: string, input: TransferInput) => Promise<Row>;
  moveDescription: string;
  transferDescription: string;
}

/** `<noun>Move` and `<noun>Transfer`: spaces and collections move alike, within or across organizations. */
function defineMoveMutations<Row>(content: MovableContent<Row>): void {
  const { noun, ref } = content;
  const idField = `${noun}Id`;
  const idOf = (input: Record<string, unknown>) => (input[idField] as DecodedID).id;

  defineMutation(`${noun}Move`, {
    inputDescription: `Input of ${noun}Move. Give a parent, a position or both.`,
    description: content.moveDescription,
    input: (t) => ({
      [idField]: t.globalID({ for: ref, required: true, description: `The ${noun} to move.` }),
      parentId: t.globalID({
        for: CollectionRef,
        description: 'The collection to move it into; null for the top level of the organization; absent to keep its parent.',
      }),
      position: t.field({ type: ContentPositionInput, description: 'Where among the children of the parent; last when absent.' }),
    }),
    fields: MOVE_FIELDS,
    payload: { [noun]: { type: ref, description: `The ${noun} at its new place.` } },
    resolve: async (input, ctx) => {
      const { parentId, position } = input as { parentId?: DecodedID | null; position?: { beforeId?: DecodedID | null; afterId?: DecodedID | null } | null };
      const move: MoveInput = {
        ...(parentId !== undefined ? { parent: parentId?.id ?? null } : {}),
        ...(position ? { position: positionFromInput(position) } : {}),
      };
      return { [noun]: await content.move(ctx, idOf(input), move) };
    },
  });

  defineMutation(`${noun}Transfer`, {
    description: content.transferDescription,
    input: (t) => ({
      [idField]: t.globalID({ for: ref, required: true, description: `The ${noun} to transfer.` }),
      organizationId: t.globalID({ for: OrganizationRef, required: true, description: 'The organization to transfer it to; the viewer must administer it.' }),
    }),
    fields: MOVE_FIELDS,
    payload: { [noun]: { type: ref, description: `The ${noun} in its new organization.` } },
    resolve: async (input, ctx) => ({
      [noun]: await content.transfer(ctx, idOf(input), { organization: (input as { organizationId: DecodedID }).organizationId.id }),
    }),
  });
}

defineMoveMutations({
  noun: 'space',
  ref: SpaceRef,
  move: moveSpace,
  transfer: transferSpace,
  moveDescription:
    'Moves a space within its organization: to another collection, to another place among its siblings, or both. A space ' +
    'that followed the visibility of its collection becomes private at the top level. Needs admin on the space and the ' +
    'create role where it goes.',
  transferDescription:
    'Moves a space to the top level of another organization. Access granted to teams, or to people who are not members ' +
    'there, is dropped. Needs admin on the space and on the target organization.',
});

defineMoveMutations({
  noun: 'collection',
  ref: CollectionRef,
  move: moveCollection,
  transfer: transferCollection,
  moveDescription:
    'Moves a collection within its organization: to another parent, to another place among its siblings, or both. ' +
    'Needs admin on the collection and the create role where it goes; it cannot go inside itself.',
  transferDescription:
    'Moves a collection, with everything inside it, to the top level of another organization. Access granted to teams, ' +
    'or to people who are not members there, is dropped. Needs admin on the collection and on the target organization.',
});
