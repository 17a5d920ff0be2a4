import type { Db } from '../../db/client';
import { notify, parseNotification } from '../../db/notify';

/** The NOTIFY channel every instance listens on for discussion events. */
export const COMMENT_CHANNEL = 'quire_comments';

export type CommentEventKind = 'added' | 'edited' | 'resolved' | 'reopened' | 'replied' | 'deleted';

/** What changed, and where: subscribers re-read the comment themselves, with their own rights. */
export interface CommentEvent {
  kind: CommentEventKind;
  spaceId: string;
  changeRequestId: string | null;
  pageId: string | null;
  commentId: string;
}

/**
 * Tells every instance (through PostgreSQL, so a subscriber on another instance hears it too).
 * Sent after the write committed: a subscriber that reads the comment then finds it.
 */
export async function publishCommentEvent(db: Db, event: CommentEvent): Promise<void> {
  await notify(db, COMMENT_CHANNEL, event);
}

export const parseCommentEvent = (payload: string) => parseNotification<CommentEvent>(payload, 'spaceId', 'commentId');
