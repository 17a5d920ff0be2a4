import { z } from 'zod';
import { bodyObject } from '../../domain/validate';
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
