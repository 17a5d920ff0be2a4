import { anyOf } from '../../db/any';
import { defineLoader } from '../../db/loader';
import { commentReactions, type CommentReactionRow } from '../../db/schema/comments';

/** Reactions of comments and replies by subject id, oldest first: one statement for a page of them. */
export const reactionsBySubject = defineLoader<string, CommentReactionRow[]>('commentReactions', async (db, ids) => {
  const rows = await db.select().from(commentReactions).where(anyOf(commentReactions.subjectId, ids)).orderBy(commentReactions.reactedAt, commentReactions.userId);
  const bySubject = new Map<string, CommentReactionRow[]>(ids.map((id) => [id, []]));
  for (const row of rows) bySubject.get(row.subjectId)?.push(row);
  return ids.map((id) => bySubject.get(id)!);
});
