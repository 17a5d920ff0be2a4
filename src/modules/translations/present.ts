import type { RequestContext } from '../../context/request-context';
import { translationPermissions } from './service';
import type { TranslationRow } from '../../db/schema/translations';

const seconds = (ms: number) => Math.round(ms / 1000);

/**
 * The platform's Translation. Its status enum has no failure: a failed translation shows as
 * `pending` (it waits for another run) with `failure`, the reason, beside it (the schema allows
 * more properties), as GraphQL's `status` FAILED and `failure` do.
 */
export async function presentTranslation(ctx: RequestContext, row: TranslationRow) {
  return {
    object: 'translation' as const,
    id: row.id,
    status: row.status === 'failed' ? ('pending' as const) : row.status,
    ...(row.status === 'failed' && row.failure ? { failure: row.failure } : {}),
    source: { space: row.sourceSpaceId, language: row.sourceLanguage },
    language: row.language,
    instructions: row.instructions,
    ...(row.resultSpaceId && row.resultRevisionId ? { result: { space: row.resultSpaceId, revision: row.resultRevisionId } } : {}),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    stats: {
      runs: row.runs,
      totalWords: row.totalWords,
      totalPages: row.totalPages,
      totalDuration: seconds(row.totalDurationMs),
      latestRunDuration: seconds(row.latestRunDurationMs),
      latestPages: row.latestPages,
      latestWords: row.latestWords,
    },
    permissions: await translationPermissions(ctx, row),
    urls: { location: `${ctx.config.publicUrl}/v1/orgs/${row.organizationId}/translations/${row.id}` },
  };
}
