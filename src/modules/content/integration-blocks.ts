import { and, eq, inArray, or } from 'drizzle-orm';
import type { RequestContext } from '../../context/request-context';
import { defineLoader } from '../../db/loader';
import { integrationInstallations, integrationSpaceInstallations } from '../../db/schema/installations';
import { integrations } from '../../db/schema/integrations';
import { NO_BLOCK_LANGUAGES, type BlockKind, type BlockLanguages } from './block-syntax';

/*
 * Which code-block languages stand for an integration block in a space: those of the blocks
 * (`markdown.codeblock`) of every integration actively installed on it. Read once per request and
 * space, for all the spaces asked in the same tick in one statement, so a thousand pages' documents
 * cost one lookup, not one each.
 */

interface SpaceKey {
  id: string;
  organizationId: string;
}

/** The blocks of a manifest that have a markdown form, as language → block. */
function languagesOf(name: string, blocks: unknown): [string, BlockKind][] {
  if (!Array.isArray(blocks)) return [];
  const out: [string, BlockKind][] = [];
  for (const block of blocks.slice(0, 100)) {
    const markdown = (block as { markdown?: { codeblock?: unknown; body?: unknown } } | null)?.markdown;
    const id = (block as { id?: unknown }).id;
    if (typeof id === 'string' && typeof markdown?.codeblock === 'string' && typeof markdown.body === 'string' && markdown.codeblock) out.push([markdown.codeblock, { integration: name, block: id, body: markdown.body }]);
  }
  return out;
}

const languagesLoader = defineLoader<SpaceKey, BlockLanguages, string>(
  'integration block languages',
  async (db, keys) => {
    const i = integrationInstallations;
    const s = integrationSpaceInstallations;
    const spaceIds = keys.map((k) => k.id);
    const rows = await db
      .select({ organizationId: i.organizationId, selection: i.spaceSelection, spaceId: s.spaceId, name: integrations.name, manifest: integrations.manifest })
      .from(i)
      .innerJoin(integrations, eq(integrations.id, i.integrationId))
      .leftJoin(s, and(eq(s.installationId, i.id), inArray(s.spaceId, spaceIds)))
      .where(and(inArray(i.organizationId, [...new Set(keys.map((k) => k.organizationId))]), eq(i.status, 'active'), or(eq(i.spaceSelection, 'all'), inArray(s.spaceId, spaceIds))));
    // When two integrations claim one language, the first by name wins, the same on every read.
    rows.sort((a, b) => a.name.localeCompare(b.name));
    return keys.map((key) => {
      const map = new Map<string, BlockKind>();
      for (const row of rows) {
        if (row.organizationId !== key.organizationId || (row.selection !== 'all' && row.spaceId !== key.id)) continue;
        for (const [lang, kind] of languagesOf(row.name, row.manifest.blocks)) if (!map.has(lang)) map.set(lang, kind);
      }
      return map.size ? map : NO_BLOCK_LANGUAGES;
    });
  },
  { cacheKeyFn: (key) => key.id },
);

/** The code-block languages of the integration blocks installed on a space. */
export async function blockLanguages(ctx: RequestContext, space: SpaceKey): Promise<BlockLanguages> {
  return (await languagesLoader(ctx).load({ id: space.id, organizationId: space.organizationId })) ?? NO_BLOCK_LANGUAGES;
}
