import { z } from 'zod';
import { bodyObject } from '../../domain/validate';

/*
 * The body of `POST /orgs/{organizationId}/sites/{siteId}/search` (the spec's searchSiteContent):
 * the query, and which of the site's spaces to search, either as `scope` (SiteSearchScope) or in
 * the deprecated flat form (`mode` with `siteSpaceIds` or `siteSpaceId`). The renderer also sends
 * `scope.currentSiteSpace` and `scope.restrictTo`, which newer releases of the spec name.
 */

const id = (field: string) => z.string({ error: `${field} must be a site space id` }).min(1, `${field} must not be empty`).max(100, `${field} is not an id`);
const ids = (field: string) => z.array(id(`${field}.*`), { error: `${field} must be a list of site space ids` }).max(100, `${field} may hold at most 100 ids`);

const scopeSchema = z
  .object(
    {
      mode: z.enum(['default', 'specific', 'all'], { error: 'scope.mode must be default, specific or all' }),
      includedSiteSpaces: ids('scope.includedSiteSpaces').optional(),
      siteSpaceIds: ids('scope.siteSpaceIds').min(1, 'scope.siteSpaceIds must name at least one site space').optional(),
      currentSiteSpace: id('scope.currentSiteSpace').optional(),
      restrictTo: z.enum(['currentSiteSpace', 'otherSiteSpaces'], { error: 'scope.restrictTo must be currentSiteSpace or otherSiteSpaces' }).optional(),
    },
    { error: 'scope must be an object' },
  )
  .strict();

export const siteSearchSchema = z
  .object(
    {
      // Checked again, trimmed, by the content search; here so that a missing query is named first.
      query: z.string({ error: 'query is required' }).max(512, 'query must be at most 512 characters'),
      scope: scopeSchema.optional(),
      mode: z.enum(['specific', 'current', 'all'], { error: 'mode must be specific, current or all' }).optional(),
      siteSpaceIds: ids('siteSpaceIds').min(1, 'siteSpaceIds must name at least one site space').optional(),
      siteSpaceId: id('siteSpaceId').optional(),
    },
    bodyObject,
  )
  .strict();
export type SiteSearchInput = z.input<typeof siteSearchSchema>;

/** Which site spaces a search reads: every one, the defaults of each section (with some more), or those named. */
export type SiteSearchScope =
  | { kind: 'all' }
  | { kind: 'specific'; siteSpaceIds: string[] }
  | { kind: 'default'; include: string[]; current?: string; restrictTo?: 'currentSiteSpace' | 'otherSiteSpaces' };
