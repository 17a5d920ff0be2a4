import { builder } from '../../../graphql/builder';
import { defineMutation } from '../../../graphql/mutation';
import { RevisionRef } from '../../content/graphql/refs';
import { contentAt, type MergeConflict } from '../../content/service';
import { SpaceRef } from '../../spaces/graphql/refs';
import { createChangeRequest, getChangeRequestById, mergeChangeRequest, updateChangeRequest, updateFromSpace, type MergeAnswer } from '../service';
import { ChangeRequestRef, ChangeRequestStatusEnum } from './refs';

const changeRequestPayload = (description: string) => ({ changeRequest: { type: ChangeRequestRef, description } });

defineMutation('changeRequestCreate', {
  description: "Creates a draft change request, branched from the space's current content. Needs the edit role on the space, which must not be locked.",
  input: (t) => ({
    spaceId: t.globalID({ for: SpaceRef, required: true, description: 'The space to propose changes to.' }),
    subject: t.string({ description: 'What it is about, at most 100 characters.' }),
  }),
  payload: changeRequestPayload('The new change request.'),
  resolve: async ({ spaceId, subject }, ctx) => ({ changeRequest: await createChangeRequest(ctx, spaceId.id, subject == null ? {} : { subject }) }),
});

defineMutation('changeRequestUpdate', {
  inputDescription: 'Input of changeRequestUpdate. Absent fields stay as they are.',
  description: 'Changes the subject or the status of a change request: DRAFT, OPEN (which needs a subject) or ARCHIVED; MERGED only comes from changeRequestMerge. Needs the edit role.',
  input: (t) => ({
    changeRequestId: t.globalID({ for: ChangeRequestRef, required: true, description: 'The change request.' }),
    subject: t.string({ description: 'New subject, at most 100 characters.' }),
    status: t.field({ type: ChangeRequestStatusEnum, description: 'New status.' }),
  }),
  payload: changeRequestPayload('The change request after the change.'),
  resolve: async ({ changeRequestId, subject, status }, ctx) => {
    const changes = { ...(subject != null ? { subject } : {}), ...(status ? { status } : {}) };
    return { changeRequest: await updateChangeRequest(ctx, await getChangeRequestById(ctx, changeRequestId.id), changes) };
  },
});

const MergeResultEnum = builder.enumType('MergeResult', {
  description: 'How a merge or an update went.',
  values: {
    MERGED: { value: 'merged' as const, description: 'The changes were brought together into a new revision.' },
    CONFLICTS: { value: 'conflicts' as const, description: 'Some changes clash: nothing was written; see `conflicts`.' },
  },
});

const mergePayload = {
  result: { type: MergeResultEnum, description: 'Whether it merged or clashed.' },
  revision: { type: RevisionRef, description: 'The revision written; the unchanged current one when it clashed.' },
  conflicts: { type: ['MergeConflict'], description: 'What clashes; empty when it merged.' },
  changeRequest: { type: ChangeRequestRef, description: 'The change request afterwards.' },
};

async function mergeOutcome(ctx: Parameters<typeof contentAt>[0], answer: MergeAnswer) {
  const { space } = answer.changeRequest;
  return {
    result: answer.result === 'conflicts' ? ('conflicts' as const) : ('merged' as const),
    revision: await contentAt(ctx, space, answer.revision),
    conflicts: answer.conflicts as MergeConflict[],
    changeRequest: answer.changeRequest,
  };
}

defineMutation('changeRequestMerge', {
  description:
    "Merges a change request into its space: a three-way merge of its base, the space's current content and its own. When nothing clashes the space gets a merge revision and the change request becomes MERGED; otherwise nothing is written and the conflicts are answered. Needs the merge permission (the edit role, on a space that is not locked).",
  input: (t) => ({ changeRequestId: t.globalID({ for: ChangeRequestRef, required: true, description: 'The change request, draft or open.' }) }),
  payload: mergePayload,
  resolve: async ({ changeRequestId }, ctx) => mergeOutcome(ctx, await mergeChangeRequest(ctx, await getChangeRequestById(ctx, changeRequestId.id))),
});

defineMutation('changeRequestUpdateFromSpace', {
  description: "Brings the space's changes since the change request's base into it, by the same three-way merge; the change request is then up to date. Nothing is written when changes clash. Needs the edit role.",
  input: (t) => ({ changeRequestId: t.globalID({ for: ChangeRequestRef, required: true, description: 'The change request, draft or open.' }) }),
  payload: mergePayload,
  resolve: async ({ changeRequestId }, ctx) => mergeOutcome(ctx, await updateFromSpace(ctx, await getChangeRequestById(ctx, changeRequestId.id))),
});
