import type { Community, Group, Relationship } from './community-schema.js';
import { isWithinWindow } from './community-time.js';

/** The edges between two members (either direction), in file order. */
export function relationshipsBetween({
  community,
  a,
  b,
}: {
  community: Pick<Community, 'relationships'>;
  a: string;
  b: string;
}): Relationship[] {
  return community.relationships.filter(
    (edge) => (edge.sourceId === a && edge.targetId === b) || (edge.sourceId === b && edge.targetId === a),
  );
}

/** Whether a relationship's validity window covers the instant `at`. */
export function isRelationshipActive({ relationship, at }: { relationship: Relationship; at: string }): boolean {
  return isWithinWindow({ from: relationship.startDate, to: relationship.endDate, at });
}

/** The first edge between `a` and `b` that is active at `at`, if any. */
export function activeRelationship({
  community,
  a,
  b,
  at,
}: {
  community: Pick<Community, 'relationships'>;
  a: string;
  b: string;
  at: string;
}): Relationship | undefined {
  return relationshipsBetween({ community, a, b }).find((relationship) => isRelationshipActive({ relationship, at }));
}

/**
 * What `otherId` is to `selfId` under an edge between them: the edge's `relationship` when
 * `selfId` is its source, else its `inverseRelationship` (falling back to `relationship` for
 * symmetric ties such as "friend").
 */
export function relationshipLabel({ relationship, selfId }: { relationship: Relationship; selfId: string }): string {
  return relationship.sourceId === selfId
    ? relationship.relationship
    : (relationship.inverseRelationship ?? relationship.relationship);
}

/** Whether `userId` is a member of `group` at the instant `at`. */
export function isMemberAt({ group, userId, at }: { group: Group; userId: string; at: string }): boolean {
  return group.memberships.some(
    (membership) => membership.userId === userId && isWithinWindow({ from: membership.from, to: membership.to, at }),
  );
}

/** The members of `group` at the instant `at`, unique, in membership order. */
export function membersAt({ group, at }: { group: Group; at: string }): string[] {
  const members: string[] = [];
  for (const membership of group.memberships) {
    if (isWithinWindow({ from: membership.from, to: membership.to, at }) && !members.includes(membership.userId)) {
      members.push(membership.userId);
    }
  }
  return members;
}
