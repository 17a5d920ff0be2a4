import type { ObjectRef } from '@pothos/core';
import type { RequestContext } from '../../../context/request-context';
import type { BuilderTypes } from '../../../graphql/builder';
import { defineMutation } from '../../../graphql/mutation';
import { CollectionRef } from '../../collections/graphql/refs';
import { OrganizationRef } from '../../organizations/graphql/refs';
import type { MoveInput, TransferInput } from '../input';
import { ContentPositionInput, MOVE_FIELDS, positionFromInput } from './inputs';

type DecodedID = { typename: string; id: string };

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
export function defineMoveMutations<Row>(content: MovableContent<Row>): void {
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
