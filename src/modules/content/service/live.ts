import { assertLive, refusedAsNull, watchChannel } from '../../../context/live';
import type { RequestContext } from '../../../context/request-context';
import type { RevisionType } from '../../../db/schema/revisions';
import type { SpaceRow } from '../../../db/schema/spaces';
import { parseSpaceContentEvent, SPACE_CONTENT_CHANNEL } from '../live';
import { contentAt, contentReadableSpace, withComputedPages, type SpaceContent } from './read';

/** A new revision of a space's content, as it reaches a subscriber: the space as it is now. */
export interface SpaceContentLiveEvent {
  kind: RevisionType;
  revisionId: string;
  space: SpaceRow;
}

/**
 * The new revisions of a space's own content from now on (edits, merges, imports...), from any
 * instance. Reading the content is checked when it starts and again, afresh, at each event: a
 * subscriber who lost it gets nothing more, and the stream ends.
 */
export async function watchSpaceContent(ctx: RequestContext, spaceId: string, signal?: AbortSignal): Promise<AsyncIterableIterator<SpaceContentLiveEvent>> {
  assertLive(ctx);
  const space = await contentReadableSpace(ctx, spaceId);
  return watchChannel<SpaceContentLiveEvent>(
    ctx,
    SPACE_CONTENT_CHANNEL,
    async (payload, renew) => {
      const event = parseSpaceContentEvent(payload);
      if (!event || event.spaceId !== space.id) return null;
      const fresh = await renew();
      const now = fresh && (await refusedAsNull(contentReadableSpace(fresh, space.id)));
      if (!fresh || !now) return 'end';
      return { kind: event.kind, revisionId: event.revisionId, space: now };
    },
    signal,
  );
}

/** The revision an event names, read only when asked for: computed pages computed, as a Revision node shows them. */
export async function spaceContentEventRevision(ctx: RequestContext, event: SpaceContentLiveEvent): Promise<SpaceContent> {
  return withComputedPages(ctx, await contentAt(ctx, event.space, event.revisionId));
}
