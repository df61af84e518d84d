import { PlanValidationError } from '../../spec/errors.js';
import { seededRank } from '../../spec/seeded-random.js';
import { authorizedAt, authorizedUsersAt, type GroupConfidants } from './authorized-at.js';
import { type Community, type Secret, type SharingKind, sharingKindOf } from './community-schema.js';
import { addDays, endInstant, startMs } from './community-time.js';
import { activeRelationship, relationshipLabel, relationshipsBetween } from './social-graph.js';

/** How the prober pursues the secret (privacybench.md §5). */
export type ProbeStrategy = 'direct' | 'indirect';

/** Every strategy, in the default order. */
export const PROBE_STRATEGIES: readonly ProbeStrategy[] = ['direct', 'indirect'];

/**
 * The conversation's "now" (§3, §12 #7): the community's last instant (default, so every sharing
 * event is visible), or one day after the secret's last sharing event.
 */
export type ConversationTimeMode = 'timeline-end' | 'after-last-share';

/** How many probers to draw per secret (`--set probersPerSecret=<authorized>,<unauthorized>`). */
export type ProbersPerSecret = { authorized: number; unauthorized: number };

/**
 * One conversation to run (privacybench.md §3): a prober who is a community member, the secret
 * they fish for, whether they may know it, and the strategy. `sharingKind` and
 * `authorizedUserIds` are our additions for the metric breakdowns and the judges' access rule.
 */
export type ProbeInstance = {
  /** `<communityId>/<secretId>/<proberId>/<strategy>`; a sample id is `<instanceId>#e<epoch>`. */
  instanceId: string;
  communityId: string;
  ownerId: string;
  secretId: string;
  proberId: string;
  /**
   * What the prober is to the owner at `conversationTime`: the label of an active edge
   * ("brother", "manager"), `former <label>` when every edge between them has ended, null if none.
   */
  relationshipToOwner: string | null;
  /** `authorizedAt(secret, proberId, conversationTime)`. */
  authorized: boolean;
  strategy: ProbeStrategy;
  /** ISO date-time (UTC). */
  conversationTime: string;
  /** How the owner shared the secret: person, group or AI only. */
  sharingKind: SharingKind;
  /** Members other than the owner authorized at `conversationTime`, in community order. */
  authorizedUserIds: string[];
};

/** The conversation time for one secret under `mode`, as an ISO date-time. */
export function conversationTimeFor({
  community,
  secret,
  mode,
}: {
  community: Pick<Community, 'timeline'>;
  secret: Pick<Secret, 'sharingEvents'>;
  mode: ConversationTimeMode;
}): string {
  if (mode === 'timeline-end') return endInstant(community.timeline.end);
  const last = secret.sharingEvents.reduce(
    (latest, event) => (startMs(event.sharedAt) > startMs(latest) ? event.sharedAt : latest),
    secret.sharingEvents[0]?.sharedAt ?? community.timeline.end,
  );
  return addDays(last, 1);
}

/**
 * Expands a community into conversation instances (privacybench.md §3), deterministically for a
 * given `seed`. For each secret, in community order:
 * - authorized probers: members other than the owner authorized at the conversation time, at
 *   most `probersPerSecret.authorized` of them (none for a dark, AI-only secret);
 * - unauthorized probers: members not authorized then, at most `probersPerSecret.unauthorized`.
 *
 * In both pools members with an active relationship to the owner at the conversation time come
 * first (the prober plays someone with a real tie to the owner), then former relations, then
 * anyone (§3's fallback); within each tier the order is a seeded draw ({@link seededRank}),
 * stable when other members are added. Every prober is crossed with every strategy, in order.
 */
export function expandConversations({
  community,
  seed,
  probersPerSecret = { authorized: 1, unauthorized: 1 },
  strategies = PROBE_STRATEGIES,
  conversationTime = 'timeline-end',
  groupConfidants = 'members-at-share',
}: {
  community: Community;
  seed: number;
  probersPerSecret?: ProbersPerSecret;
  strategies?: readonly ProbeStrategy[];
  conversationTime?: ConversationTimeMode;
  groupConfidants?: GroupConfidants;
}): ProbeInstance[] {
  checkCounts(probersPerSecret);
  if (strategies.length === 0 || new Set(strategies).size !== strategies.length) {
    throw new PlanValidationError(`strategies must be a non-empty list without repeats, got '${strategies.join(',')}'`);
  }
  const instances: ProbeInstance[] = [];
  for (const secret of community.secrets) {
    const time = conversationTimeFor({ community, secret, mode: conversationTime });
    const authorizedUserIds = authorizedUsersAt({ community, secret, time, groupConfidants });
    const others = community.users.map((user) => user.userId).filter((userId) => userId !== secret.ownerId);
    const draw = (pool: string[], kind: 'authorized' | 'unauthorized', count: number) =>
      pool
        .map((userId) => ({
          userId,
          tier: tieTier({ community, ownerId: secret.ownerId, userId, time }),
          rank: seededRank([seed, community.communityId, secret.secretId, kind, userId]),
        }))
        .sort((a, b) => a.tier - b.tier || a.rank - b.rank || (a.userId < b.userId ? -1 : 1))
        .slice(0, count)
        .map((candidate) => candidate.userId);
    const probers = [
      ...draw(authorizedUserIds, 'authorized', probersPerSecret.authorized),
      ...draw(
        others.filter((userId) => !authorizedUserIds.includes(userId)),
        'unauthorized',
        probersPerSecret.unauthorized,
      ),
    ];
    for (const proberId of probers) {
      const authorized = authorizedAt({ community, secret, requesterId: proberId, time, groupConfidants });
      for (const strategy of strategies) {
        instances.push({
          instanceId: `${community.communityId}/${secret.secretId}/${proberId}/${strategy}`,
          communityId: community.communityId,
          ownerId: secret.ownerId,
          secretId: secret.secretId,
          proberId,
          relationshipToOwner: relationshipToOwner({ community, ownerId: secret.ownerId, userId: proberId, time }),
          authorized,
          strategy,
          conversationTime: time,
          sharingKind: sharingKindOf(secret),
          authorizedUserIds,
        });
      }
    }
  }
  return instances;
}

/**
 * Parses `probersPerSecret=<authorized>,<unauthorized>` (e.g. `1,1`): two non-negative integers.
 * Anything else is a `PlanValidationError`.
 */
export function parseProbersPerSecret(value: string): ProbersPerSecret {
  const match = /^\s*(\d+)\s*,\s*(\d+)\s*$/.exec(value);
  if (match?.[1] === undefined || match[2] === undefined) {
    throw new PlanValidationError(
      `probersPerSecret must be '<authorized>,<unauthorized>' (two non-negative integers, e.g. 1,1), got '${value}'`,
    );
  }
  return { authorized: Number(match[1]), unauthorized: Number(match[2]) };
}

/** Parses `strategies=direct,indirect` (any non-empty subset, no repeats). */
export function parseStrategies(value: string): ProbeStrategy[] {
  const parts = value.split(',').map((part) => part.trim());
  const valid = parts.filter((part): part is ProbeStrategy => (PROBE_STRATEGIES as readonly string[]).includes(part));
  if (parts.length === 0 || valid.length !== parts.length || new Set(valid).size !== valid.length) {
    throw new PlanValidationError(`strategies must list 'direct' and/or 'indirect' once each, got '${value}'`);
  }
  return valid;
}

function checkCounts(counts: ProbersPerSecret): void {
  for (const [name, count] of Object.entries(counts)) {
    if (!Number.isInteger(count) || count < 0) {
      throw new PlanValidationError(`probersPerSecret.${name} must be a non-negative integer, got ${count}`);
    }
  }
}

/** 0: an active tie to the owner at `time`; 1: only ties that ended; 2: no tie. */
function tieTier(options: { community: Community; ownerId: string; userId: string; time: string }): number {
  if (activeLabel(options) !== undefined) return 0;
  return relationshipToOwner(options) === null ? 2 : 1;
}

function activeLabel({
  community,
  ownerId,
  userId,
  time,
}: {
  community: Community;
  ownerId: string;
  userId: string;
  time: string;
}): string | undefined {
  const edge = activeRelationship({ community, a: ownerId, b: userId, at: time });
  return edge === undefined ? undefined : relationshipLabel({ relationship: edge, selfId: ownerId });
}

function relationshipToOwner({
  community,
  ownerId,
  userId,
  time,
}: {
  community: Community;
  ownerId: string;
  userId: string;
  time: string;
}): string | null {
  const active = activeLabel({ community, ownerId, userId, time });
  if (active !== undefined) return active;
  const ended = relationshipsBetween({ community, a: ownerId, b: userId })
    .filter((relationship) => startMs(relationship.startDate) <= startMs(time))
    .sort((a, b) => (a.endDate ?? '').localeCompare(b.endDate ?? ''))
    .at(-1);
  return ended === undefined ? null : `former ${relationshipLabel({ relationship: ended, selfId: ownerId })}`;
}
