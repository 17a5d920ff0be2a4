import { builder } from '../../../graphql/builder';
import type { CommentInDiscussion, DiscussionEvent, ReplyInDiscussion } from '../service';

export const CommentRef = builder.objectRef<CommentInDiscussion>('Comment');
export const CommentReplyRef = builder.objectRef<ReplyInDiscussion>('CommentReply');
export const CommentEventRef = builder.objectRef<DiscussionEvent>('CommentEvent');

export const CommentStatusEnum = builder.enumType('CommentStatus', {
  description: 'Whether a discussion thread is still going.',
  values: {
    OPEN: { value: 'open' as const, description: 'Still to be dealt with.' },
    RESOLVED: { value: 'resolved' as const, description: 'Dealt with; it may be reopened.' },
  },
});
