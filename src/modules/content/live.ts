import type { Db } from '../../db/client';
import { notify, parseNotification } from '../../db/notify';
import type { RevisionType } from '../../db/schema/revisions';

/** The NOTIFY channel every instance listens on for new revisions of spaces' own content. */
export const SPACE_CONTENT_CHANNEL = 'quire_space_content';

/** A space's content moved to a new revision: subscribers re-read it themselves, with their own rights. */
export interface SpaceContentEvent {
  spaceId: string;
  revisionId: string;
  /** How the revision came to be: an edit, a merge... */
  kind: RevisionType;
}

/** Tells every instance; sent after the write committed. */
export function publishSpaceContentEvent(db: Db, event: SpaceContentEvent): Promise<void> {
  return notify(db, SPACE_CONTENT_CHANNEL, event);
}

export const parseSpaceContentEvent = (payload: string) => parseNotification<SpaceContentEvent>(payload, 'spaceId', 'revisionId');
