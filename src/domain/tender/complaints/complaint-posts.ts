import { ApiError, apiError, type ErrorEntry } from '../../../http/errors';
import type { StoreSession } from '../../../store/port';
import { formatKyiv } from '../../../time/kyiv';
import { newId } from '../../core/ids';
import { itemsOf } from '../../core/items';
import { validated } from '../../core/validation';
import type { ComplaintPost, PostAuthor } from '../tender.types';
import { saveComplaint, type TenderComplaint } from './complaint.lifecycle';
import { complaintPostSchema, type PostRequest } from './complaint.schema';

/**
 * A complaint's posts (docs/tenders.md §Complaints: posts; `models/complaint_post.py`, `state/complaint_post.py`):
 * the review body asks the complainant or the tender's owner (`recipient`), who answers it (`relatedPost`, to the
 * review body); either party may also explain itself, with no recipient, and such explanations take no answer.
 */

const REVIEWERS: PostAuthor = 'aboveThresholdReviewers';
const PARTIES: PostAuthor[] = ['complaint_owner', 'tender_owner'];
const repr = (list: string[]) => `[${list.map((x) => `'${x}'`).join(', ')}]`;

/** `CreateComplaintPost.validate_relatedPost`: the answered post exists, is answered once, by its recipient. */
function relatedPostErrors(author: PostAuthor, post: PostRequest, posts: ComplaintPost[]): string[] {
  const related = post.relatedPost;
  if (!related) return PARTIES.includes(author) && post.recipient ? ['This field is required.'] : [];
  const answered = posts.find((p) => p.id === related);
  if (!answered) return ['relatedPost should be one of posts.'];
  if (posts.some((p) => p.relatedPost === related)) return ['relatedPost must be unique.'];
  if (!answered.recipient) return ['forbidden to answer to explanations'];
  if (answered.author === author) return ["relatedPost can't have the same author."];
  if (answered.relatedPost) return ["relatedPost can't have relatedPost defined."];
  if (answered.recipient !== author) return ['relatedPost invalid recipient.'];
  return [];
}

/** `CreateComplaintPost.validate_recipient`: the review body asks a party; a party answers the review body only. */
function recipientErrors(author: PostAuthor, post: PostRequest): string[] {
  if (author === REVIEWERS) return post.recipient && PARTIES.includes(post.recipient) ? [] : [`Value must be one of ${repr(PARTIES)}.`];
  if (!post.relatedPost && post.recipient) return [`Forbidden to add recipient without relatedPost for ${repr(PARTIES)}`];
  if (post.relatedPost && post.recipient !== REVIEWERS) return [`Value must be one of ${repr([REVIEWERS])}.`];
  return [];
}

/** `POST …/complaints/{complaint_id}/posts`: the model's checks (every error at once), then the state's. */
export async function addPost(
  session: StoreSession,
  held: TenderComplaint,
  data: unknown,
  author: PostAuthor,
  now: Date,
): Promise<ComplaintPost> {
  const { complaint } = held;
  const request = validated<PostRequest>(complaintPostSchema, data);
  const posts = itemsOf(complaint, 'posts');
  const errors: ErrorEntry[] = [
    ...recipientErrors(author, request).map((d) => ({ location: 'body' as const, name: 'recipient', description: [d] })),
    ...relatedPostErrors(author, request, posts).map((d) => ({ location: 'body' as const, name: 'relatedPost', description: [d] })),
  ];
  if (errors.length) throw new ApiError(422, errors);
  if (!['pending', 'accepted'].includes(complaint.status)) {
    throw apiError(403, `Can't submit or edit post in current (${complaint.status}) complaint status`);
  }
  if (!itemsOf(complaint, 'objections').some((o) => o.id === request.relatedObjection)) {
    throw apiError(422, 'should be one of complaint objections id', { name: 'relatedObjection' });
  }
  const post: ComplaintPost = { ...request, id: newId(), datePublished: formatKyiv(now), author };
  await saveComplaint(session, held, { ...complaint, posts: [...posts, post] }, now);
  return post;
}
