import type { Element, ElementContent } from 'hast';
import type { Root as MdRoot, RootContent } from 'mdast';
import { toString } from 'mdast-util-to-string';
import type { RequestContext } from '../../context/request-context';
import type { SpaceRow } from '../../db/schema/spaces';
import { blockOfFence, parseBlockTag, type BlockLanguages, type IntegrationBlockData } from '../content/service';
import { activeInstallationsOnSpace, renderDocumentBlock, type BlockOutcome } from '../events/service';
import { contentKitToHast } from './contentkit';
import { SLOT_TAG, type Embed } from './html';

/*
 * Integration blocks on a published page. Each block at the top of the page (a fence in a language
 * of an installed integration's block, or an explicit `{% @integration/block %}` tag) is rendered
 * through its integration (`ui_render`, read-only document context), all at once, each within
 * RENDER_WAIT_MS; renders are cached (events/render-cache.ts), so the next views ask nothing. At
 * most MAX_BLOCKS are rendered per page. A block that fails, is late or whose integration is not
 * installed shows a box saying so; the page is served either way.
 */

export const MAX_BLOCKS = 20;
/** How long a page waits for one render; the runtime stops it at RENDER_DEADLINE_MS, and a late answer is kept for the next view. */
const RENDER_WAIT_MS = 3_000;
const RENDER_DEADLINE_MS = 5_000;

/** What the page's blocks brought: the frames' sources, for the page's policy. */
export interface EmbeddedBlocks {
  frames: Set<string>;
}

const box = (message: string): Element => ({
  type: 'element',
  tagName: 'div',
  properties: { className: ['integration-block', 'integration-block-failed'], role: 'note' },
  children: [{ type: 'text', value: message }],
});

/** The integration block a top-level node stands for, if any. */
function blockOf(node: RootContent, languages: BlockLanguages): IntegrationBlockData | null {
  if (node.type === 'code') return blockOfFence(languages, node.lang, node.value);
  if (node.type === 'paragraph' && node.children[0]?.type === 'text' && node.children[0].value.trimStart().startsWith('{%')) return parseBlockTag(toString(node));
  return null;
}

function withWait(render: Promise<BlockOutcome>, ms: number): Promise<BlockOutcome | null> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([render, new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)))]).finally(() => clearTimeout(timer));
}

/** An `Embed` for the page's markdown, recording what the blocks bring into `into`. */
export function embedBlocks(ctx: RequestContext, space: SpaceRow, languages: BlockLanguages, theme: 'light' | 'dark', into: EmbeddedBlocks): Embed {
  return async (tree: MdRoot) => {
    const found: { slot: number; data: IntegrationBlockData }[] = [];
    const rendered = new Map<number, ElementContent>();
    tree.children.forEach((node, slot) => {
      const data = blockOf(node, languages);
      if (!data) return;
      tree.children[slot] = { type: 'paragraph', children: [], data: { hName: SLOT_TAG, hProperties: { dataSlot: slot } } };
      if (found.length < MAX_BLOCKS) found.push({ slot, data });
      else rendered.set(slot, box(`This ${data.integration} block could not be shown: the page has more than ${MAX_BLOCKS} integration blocks.`));
    });
    if (!found.length) return rendered;
    const installed = await activeInstallationsOnSpace(ctx, space.organizationId, space.id, [...new Set(found.map((f) => f.data.integration))]);
    await Promise.all(
      found.map(async ({ slot, data }) => {
        const target = installed.get(data.integration);
        if (!target) {
          rendered.set(slot, box(`This ${data.integration} block could not be shown: the integration is not installed on this space.`));
          return;
        }
        const outcome = await withWait(renderDocumentBlock(ctx, { ...target, spaceId: space.id, block: data.block, props: data.props, theme }, RENDER_DEADLINE_MS), RENDER_WAIT_MS);
        const html = outcome?.ok ? await contentKitToHast(outcome.output) : null;
        if (!html) {
          const why = !outcome ? ': the integration took too long' : !outcome.ok ? ': the integration failed to render it' : '';
          rendered.set(slot, box(`This ${data.integration} block could not be shown${why}.`));
          return;
        }
        for (const frame of html.frames) into.frames.add(frame);
        rendered.set(slot, html.node);
      }),
    );
    return rendered;
  };
}
