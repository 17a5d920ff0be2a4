import { z } from 'zod';
import { bodyObject, oneOf } from '../../domain/validate';
import { pageMarkdownSchema } from '../../domain/content';
import { CHANGE_REQUEST_STATUSES } from '../../domain/change-requests';

const subject = z.string({ error: 'subject must be a string' }).trim().max(100, 'subject must be at most 100 characters');

export const changeRequestCreateSchema = z
  .object(
    {
      subject: subject.optional(),
      agentTaskId: z.string({ error: 'agentTaskId must be a string' }).optional(),
    },
    bodyObject,
  )
  .strict()
  .refine((b) => b.agentTaskId === undefined, { message: 'agentTaskId: agent tasks are not available on this server', path: ['agentTaskId'] });
export type ChangeRequestCreateInput = z.input<typeof changeRequestCreateSchema>;

/** The statuses a request may set; `merged` only comes from a merge. */
export const SETTABLE_STATUSES = ['draft', 'open', 'archived'] as const;

export const changeRequestUpdateSchema = z
  .object(
    {
      subject: subject.optional(),
      status: z
        .string({ error: 'status must be a string' })
        .refine((s) => s !== 'merged', 'status: a change request becomes merged by merging it (POST .../merge), not by setting its status')
        .pipe(z.enum(SETTABLE_STATUSES, { error: `status must be one of ${SETTABLE_STATUSES.join(', ')}` }))
        .optional(),
    },
    bodyObject,
  )
  .strict();
export type ChangeRequestUpdateInput = z.input<typeof changeRequestUpdateSchema>;

export const changeRequestListSchema = z.object({
  status: z.enum(CHANGE_REQUEST_STATUSES, { error: `status must be one of ${CHANGE_REQUEST_STATUSES.join(', ')}` }).default('open'),
  contributor: z.string().min(1, 'contributor must be a user id').optional(),
});
export type ChangeRequestListInput = z.input<typeof changeRequestListSchema>;

export const pdfQuerySchema = z
  .object({
    only: z.enum(['true', 'false'], { error: 'only must be true or false' }).optional(),
    page: z.string().min(1, 'page must be a page id').optional(),
  })
  .refine((q) => q.only !== 'true' || q.page !== undefined, { message: 'only=true needs a page: the id of the page to print', path: ['page'] });
export type PdfQueryInput = z.input<typeof pdfQuerySchema>;

/** How one conflict is settled: the space's version, the change request's, or an edited text. */
export const CONFLICT_CHOICES = ['theirs', 'ours', 'edited'] as const;

const itemId = (field: string) => z.string({ error: `${field} must be a string` }).min(1, `${field} must not be empty`).optional();

const conflictResolutionSchema = z
  .object(
    {
      pageId: itemId('pageId'),
      fileId: itemId('fileId'),
      choice: oneOf(CONFLICT_CHOICES, 'choice'),
      markdown: pageMarkdownSchema.optional(),
    },
    { error: 'each resolution must be an object' },
  )
  .strict()
  .refine((r) => (r.pageId === undefined) !== (r.fileId === undefined), { message: 'give either pageId or fileId: the page or file whose conflicts this settles', path: ['pageId'], abort: true })
  .refine((r) => r.choice !== 'edited' || r.pageId !== undefined, { message: 'choice: EDITED settles a page body; a file takes THEIRS or OURS', path: ['choice'], abort: true })
  .refine((r) => (r.choice === 'edited') === (r.markdown !== undefined), { message: 'markdown goes with choice EDITED, and only with it', path: ['markdown'] });

export const conflictResolveSchema = z
  .object(
    {
      spaceRevisionId: z.string({ error: 'spaceRevisionId is required' }).min(1, 'spaceRevisionId must not be empty'),
      changeRequestRevisionId: z.string({ error: 'changeRequestRevisionId must be a string' }).min(1, 'changeRequestRevisionId must not be empty').optional(),
      resolutions: z
        .array(conflictResolutionSchema, { error: 'resolutions must be a list' })
        .min(1, 'resolutions must settle at least one conflict')
        .max(1000, 'resolutions may hold at most 1000 entries'),
    },
    bodyObject,
  )
  .strict()
  .superRefine(({ resolutions }, ctx) => {
    const seen = new Set<string>();
    resolutions.forEach((r, i) => {
      const key = r.pageId !== undefined ? `page ${r.pageId}` : `file ${r.fileId}`;
      if (seen.has(key)) ctx.addIssue({ code: 'custom', message: `a second resolution for ${key}: give one per page or file`, path: ['resolutions', i, r.pageId !== undefined ? 'pageId' : 'fileId'] });
      seen.add(key);
    });
  });
export type ConflictResolveInput = z.input<typeof conflictResolveSchema>;
/** One choice, as the service reads it. */
export type ConflictChoice = z.output<typeof conflictResolveSchema>['resolutions'][number];
