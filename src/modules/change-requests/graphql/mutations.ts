import { builder } from '../../../graphql/builder';
import { defineMutation } from '../../../graphql/mutation';
import { RevisionRef } from '../../content/graphql/refs';
import { contentAt, type MergeConflict } from '../../content/service';
import { SpaceRef } from '../../spaces/graphql/refs';
import { createChangeRequest, getChangeRequestById, mergeChangeRequest, resolveChangeRequestConflicts, updateChangeRequest, updateFromSpace, type MergeAnswer } from '../service';
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

const ConflictChoiceEnum = builder.enumType('ConflictChoice', {
  description: 'How the conflicts of one page or file are settled.',
  values: {
    THEIRS: { value: 'theirs' as const, description: "The space's current content wins: its text, field values, place, or its deletion." },
    OURS: { value: 'ours' as const, description: "The change request's content wins: its text, field values, place, or its deletion." },
    EDITED: { value: 'edited' as const, description: 'The page body becomes `markdown`, text the person merged by hand. Only for a page whose conflicts are all CONTENT.' },
  },
});

const ConflictResolutionInput = builder.inputType('ConflictResolutionInput', {
  description:
    "How to settle the conflicts of one page or file, named by the `pageId` or `fileId` its MergeConflict shows. The choice applies to every conflict of that page (its body, fields, place); what merged cleanly still merges. For DELETED_MODIFIED the chosen side's page is kept, or the deletion; for PARENT_DELETED the page sits where the chosen side has it, bringing back the pages above it that side has, or goes when that side has no such page.",
  fields: (t) => ({
    pageId: t.string({ description: 'REST id of the page in conflict; give this or `fileId`.' }),
    fileId: t.string({ description: 'REST id of the file in conflict; give this or `pageId`.' }),
    choice: t.field({ type: ConflictChoiceEnum, required: true, description: 'Which way it goes.' }),
    markdown: t.string({ description: 'With EDITED, and only then: the whole body of the page, in markdown.' }),
  }),
});

defineMutation('changeRequestResolveConflicts', {
  description:
    "Settles the conflicts that merging a change request meets, as chosen for each conflicting page or file: the change request's content is brought onto the space's current content (as changeRequestUpdateFromSpace does) in a new revision, so that changeRequestMerge then goes through. Give exactly one resolution per page or file listed in the change request's `conflicts`, and the space revision they were read at: when the space (or the change request) moved since, nothing is written and a PRECONDITION_FAILED user error asks to read the conflicts again. Needs the edit role on a space that is not locked; the change request must be draft or open.",
  input: (t) => ({
    changeRequestId: t.globalID({ for: ChangeRequestRef, required: true, description: 'The change request, draft or open.' }),
    spaceRevisionId: t.globalID({
      for: RevisionRef,
      required: true,
      description: "The space's revision the conflicts were read at: `revision` of changeRequestMerge's payload when it answered CONFLICTS, or `space { content { id } }` read together with the conflicts.",
    }),
    changeRequestRevisionId: t.globalID({ for: RevisionRef, description: "The change request's revision the conflicts were read at; when given, a change request edited since is refused too." }),
    resolutions: t.field({ type: [ConflictResolutionInput], required: true, description: 'One per conflicting page or file.' }),
  }),
  payload: {
    changeRequest: { type: ChangeRequestRef, description: 'The change request, its conflicts settled.' },
    revision: { type: RevisionRef, description: 'The revision of the change request that settles them.' },
  },
  resolve: async ({ changeRequestId, spaceRevisionId, changeRequestRevisionId, resolutions }, ctx) => {
    const cr = await getChangeRequestById(ctx, changeRequestId.id);
    const answer = await resolveChangeRequestConflicts(ctx, cr, {
      spaceRevisionId: spaceRevisionId.id,
      ...(changeRequestRevisionId ? { changeRequestRevisionId: changeRequestRevisionId.id } : {}),
      resolutions: resolutions.map((r) => ({
        ...(r.pageId != null ? { pageId: r.pageId } : {}),
        ...(r.fileId != null ? { fileId: r.fileId } : {}),
        choice: r.choice,
        ...(r.markdown != null ? { markdown: r.markdown } : {}),
      })),
    });
    return { changeRequest: answer.changeRequest, revision: await contentAt(ctx, answer.changeRequest.space, answer.revision) };
  },
});
