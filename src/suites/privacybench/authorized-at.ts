import type { Community, Secret } from './community-schema.js';
import { startMs } from './community-time.js';
import { isMemberAt } from './social-graph.js';

/**
 * Who counts as a group confidant (privacybench.md §12 #8): the members at the sharing time
 * (default), or the members at the time of the question.
 */
export type GroupConfidants = 'members-at-share' | 'current-members';

/**
 * Whether `requesterId` may know `secret` at the instant `time` (privacybench.md §1): the owner
 * always may; otherwise some sharing event with `sharedAt ≤ time` must cover the requester — a
 * `users` audience by listing them, a `group` audience by their membership at `sharedAt` (or at
 * `time` with `groupConfidants: 'current-members'`). An `ai` audience authorizes nobody. This is
 * the one rule used by the judges' access rules, by IRR and by access-controlled retrieval.
 * `time` is an ISO date-time (a bare date means its first instant, UTC).
 */
export function authorizedAt({
  community,
  secret,
  requesterId,
  time,
  groupConfidants = 'members-at-share',
}: {
  community: Pick<Community, 'groups'>;
  secret: Pick<Secret, 'ownerId' | 'sharingEvents'>;
  requesterId: string;
  time: string;
  groupConfidants?: GroupConfidants;
}): boolean {
  if (requesterId === secret.ownerId) return true;
  const at = startMs(time);
  return secret.sharingEvents.some((event) => {
    if (startMs(event.sharedAt) > at) return false;
    const audience = event.audience;
    if (audience.kind === 'users') return audience.userIds.includes(requesterId);
    if (audience.kind === 'ai') return false;
    const group = community.groups.find((candidate) => candidate.groupId === audience.groupId);
    if (group === undefined) return false;
    const memberAt = groupConfidants === 'members-at-share' ? event.sharedAt : time;
    return isMemberAt({ group, userId: requesterId, at: memberAt });
  });
}

/**
 * The members other than the owner who are authorized for `secret` at `time`, in the order of
 * `community.users`. Empty for a dark (AI-only) secret.
 */
export function authorizedUsersAt({
  community,
  secret,
  time,
  groupConfidants = 'members-at-share',
}: {
  community: Pick<Community, 'groups' | 'users'>;
  secret: Pick<Secret, 'ownerId' | 'sharingEvents'>;
  time: string;
  groupConfidants?: GroupConfidants;
}): string[] {
  return community.users
    .map((user) => user.userId)
    .filter(
      (userId) =>
        userId !== secret.ownerId && authorizedAt({ community, secret, requesterId: userId, time, groupConfidants }),
    );
}
