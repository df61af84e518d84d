import type { CommunityIssue, CommunityRule } from '../community-issue.js';
import type { Draft } from './generation-draft.js';

/** Rules about a sharing event's conversation: the unit that wrote that conversation is at fault. */
const SHARING_CONVERSATION_RULES: ReadonlySet<CommunityRule> = new Set([
  'sharing-document',
  'secret-not-revealed',
  'shared-at',
]);

/** The key of the sharing-conversation unit of an event. */
export function sharingUnitKey(eventId: string): string {
  return `share/${eventId}`;
}

/** The key of a user's profile-enrichment unit. */
export function profileUnitKey(userId: string): string {
  return `profile/${userId}`;
}

/**
 * The unit whose output an issue found by `checkCommunity` is about, or undefined when no unit
 * owns it. Document issues go to the unit that wrote the document; attribute and style issues to
 * the user's profile unit; sharing-conversation issues to that event's sharing unit; everything
 * else in `community.json` to the unit that created the user, edge, group or secret.
 */
export function ownerOfIssue({ issue, draft }: { issue: CommunityIssue; draft: Draft }): string | undefined {
  if (issue.file === 'documents.jsonl') {
    return issue.docId === undefined ? undefined : draft.owners.documents[issue.docId];
  }
  const { community, owners } = draft;
  const profile = /^users\[(\d+)\]\.(attributes|style)/.exec(issue.path);
  if (profile !== null) {
    const user = community.users[Number(profile[1])];
    return user === undefined ? undefined : profileUnitKey(user.userId);
  }
  const indexed = /^(users|relationships|groups|secrets)\[(\d+)\](?:\.sharingEvents\[(\d+)\])?/.exec(issue.path);
  if (indexed === null) return undefined;
  const index = Number(indexed[2]);
  switch (indexed[1]) {
    case 'users':
      return owners.users[index];
    case 'relationships':
      return owners.relationships[index];
    case 'groups':
      return owners.groups[index];
    default: {
      if (indexed[3] !== undefined && SHARING_CONVERSATION_RULES.has(issue.rule)) {
        const event = community.secrets[index]?.sharingEvents[Number(indexed[3])];
        return event === undefined ? undefined : sharingUnitKey(event.eventId);
      }
      return owners.secrets[index];
    }
  }
}
