import type { RequestContext } from '../context/request-context';
import { discussionContent, getComment, getDiscussion, postComment, postReply, updateComment } from '../modules/comments/service';

/**
 * A short discussion on the demo's Welcome page: a question with a reply and a reaction, and a
 * thread already resolved. `admin` and `editor` are two members' contexts.
 */
export async function seedDemoDiscussion(admin: RequestContext, editor: RequestContext, spaceId: string): Promise<void> {
  const discussion = await getDiscussion(admin, spaceId);
  const welcome = [...(await discussionContent(admin, discussion)).tree.byId.values()].find((e) => e.page.data.title === 'Welcome');
  const page = welcome?.page.data.id;
  const question = await postComment(admin, discussion, { ...(page ? { page } : {}), body: { markdown: 'Should this page say how to run Quire with **Docker**?' } });
  await postReply(editor, question, { body: { markdown: 'Yes: the README has a `docker run` line we can link to.' } });
  await updateComment(editor, await getComment(editor, await getDiscussion(editor, spaceId), question.row.id), { addedReactions: ['👍'] });
  const typo = await postComment(editor, await getDiscussion(editor, spaceId), { ...(page ? { page } : {}), body: { markdown: 'Typo in the second paragraph: "teh".' } });
  await updateComment(admin, await getComment(admin, discussion, typo.row.id), { resolved: true });
}
