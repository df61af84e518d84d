import { COMMUNITY_FORMAT_VERSION, type Community, type CommunityDocument } from '../community-schema.js';
import type { TieKind } from './datagen-schemas.js';
import type { GenerationOptions } from './generation-options.js';

/**
 * A community under construction. Parts not generated yet are provisional (users without
 * attributes, relationships without windows, sharing events without documents), so the rule
 * checks of `checkCommunity` can run after every phase. `owners` records which unit produced
 * each entity, so an issue found by the checks is sent back to exactly that unit.
 */
export type Draft = {
  options: GenerationOptions;
  community: Community;
  /** Documents with draft ids (`share-…`, `hint-…`, `d-…`); renamed when the community is finished. */
  documents: CommunityDocument[];
  /** The kind of each edge, aligned with `community.relationships`. */
  edgeKinds: TieKind[];
  /** The channel of each person-to-person sharing event (`message` or `email`), by event id. */
  eventChannels: Record<string, 'message' | 'email'>;
  owners: {
    /** Unit that created each user, aligned with `community.users`. */
    users: string[];
    /** Unit that owns each edge (its creator, then `timeline` once windows are set). */
    relationships: string[];
    groups: string[];
    secrets: string[];
    /** Document id → unit. */
    documents: Record<string, string>;
  };
};

/** A draft with the timeline and nothing else. */
export function emptyDraft(options: GenerationOptions): Draft {
  return {
    options,
    community: {
      formatVersion: COMMUNITY_FORMAT_VERSION,
      communityId: options.communityId,
      timeline: { ...options.timeline },
      users: [],
      groups: [],
      relationships: [],
      secrets: [],
    },
    documents: [],
    edgeKinds: [],
    eventChannels: {},
    owners: { users: [], relationships: [], groups: [], secrets: [], documents: {} },
  };
}

/** A deep copy, so a phase can try outputs without touching the accepted draft. */
export function cloneDraft(draft: Draft): Draft {
  return structuredClone(draft);
}

/** The id of the user at 0-based `index`: `u01`, `u02`, … */
export function userIdAt(index: number): string {
  return `u${String(index + 1).padStart(2, '0')}`;
}

/** The display name of a user id, or the id itself when unknown. */
export function nameOf(draft: Draft, userId: string): string {
  return draft.community.users.find((user) => user.userId === userId)?.name ?? userId;
}

/** Placeholder style of a user whose profile is not enriched yet. */
export const PROVISIONAL_STYLE = { texting: 'unknown yet', blogging: 'unknown yet', personalityTraits: ['unknown'] };
