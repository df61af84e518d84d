import { join, resolve } from 'node:path';
import type { AccessContext } from '../../spec/chunk.js';
import { DatasetFormatError } from '../../spec/errors.js';
import { authorizedAt, type GroupConfidants } from './authorized-at.js';
import { COMMUNITY_FILES, type Community, type CommunityDocument, type Secret, type User } from './community-schema.js';
import { expandConversations, type ProbeInstance } from './expand-conversations.js';
import { type LoadedCommunity, loadCommunity } from './load-community.js';
import { type PrivacyBenchOptions, STARTER_COMMUNITY } from './privacybench-options.js';
import { loadStarterCommunity } from './starter-community.js';

/**
 * One loaded community as every conversation of a run shares it: the data, lookups by id, and
 * a memo of built retrieval indexes (one per owner and conversation time), so the samples of a
 * run index each knowledge base once however many conversations use it.
 */
export type PrivacyBenchWorld = {
  /** Where the community was read from. */
  dir: string;
  community: Community;
  documents: readonly CommunityDocument[];
  users: ReadonlyMap<string, User>;
  secrets: ReadonlyMap<string, Secret>;
  /** Built retrievers by key (see `owner-retriever.ts`); failed builds are removed so a retry rebuilds. */
  readonly memo: Map<string, Promise<unknown>>;
};

/** A PrivacyBench scenario: one conversation instance (privacybench.md §3) and the world it happens in. */
export type PrivacyBenchScenario = { instance: ProbeInstance; world: PrivacyBenchWorld };

/** Wraps a loaded community into a {@link PrivacyBenchWorld}. */
export function createWorld(loaded: LoadedCommunity): PrivacyBenchWorld {
  return {
    dir: loaded.dir,
    community: loaded.community,
    documents: loaded.documents,
    users: new Map(loaded.community.users.map((user) => [user.userId, user])),
    secrets: new Map(loaded.community.secrets.map((secret) => [secret.secretId, secret])),
    memo: new Map(),
  };
}

/** The community directory an option names: the starter's (null) or the given path, resolved. */
export function communityDirOf(community: string): string | null {
  return community === STARTER_COMMUNITY ? null : resolve(community);
}

/**
 * The files a run over `community` hashes into its header: `community.json` and `documents.jsonl`
 * of the community directory, wherever it is (the header records a community outside
 * `<dataDir>/privacybench/` with its resolved folder as the dataset root). The committed starter
 * is built in: none.
 */
export function communityFiles({ community }: { dataDir: string; community: string }): string[] {
  const dir = communityDirOf(community);
  if (dir === null) return [];
  return [join(dir, COMMUNITY_FILES.community), join(dir, COMMUNITY_FILES.documents)];
}

/**
 * Loads the community the options name (the committed starter by default; `loadCommunity`
 * validates any other directory and reports every problem) and expands it into conversation
 * instances with the options' prober draw, strategies, conversation time and group rule.
 */
export async function loadPrivacyBenchScenarios({
  options,
}: {
  options: Pick<
    PrivacyBenchOptions,
    'community' | 'strategies' | 'probersPerSecret' | 'proberSeed' | 'conversationTime' | 'groupConfidants'
  >;
}): Promise<PrivacyBenchScenario[]> {
  const dir = communityDirOf(options.community);
  const loaded = dir === null ? await loadStarterCommunity() : await loadCommunity({ dir });
  const world = createWorld(loaded);
  const where = dir === null ? 'the starter community' : `the community in ${dir}`;
  if (world.community.secrets.length === 0) {
    throw new DatasetFormatError(
      `${where} has no secrets (the "secrets" list of community.json is empty): PrivacyBench probes an assistant about its user's secrets, so there is nothing to run; add secrets or use another --community`,
    );
  }
  const instances = expandConversations({
    community: world.community,
    seed: options.proberSeed,
    probersPerSecret: options.probersPerSecret,
    strategies: options.strategies,
    conversationTime: options.conversationTime,
    groupConfidants: options.groupConfidants,
  });
  if (instances.length === 0) {
    throw new DatasetFormatError(
      `${where} gives no conversation: none of its ${world.community.secrets.length} secrets has a member other than its owner to probe it (probersPerSecret ${JSON.stringify(options.probersPerSecret)}); add members or raise probersPerSecret`,
    );
  }
  return instances.map((instance) => ({ instance, world }));
}

/** The secret an instance is about; a missing id is a bug in the expansion, not a user error. */
export function secretOf({ world, secretId }: { world: PrivacyBenchWorld; secretId: string }): Secret {
  const secret = world.secrets.get(secretId);
  if (secret === undefined) throw new Error(`no secret '${secretId}' in community ${world.community.communityId}`);
  return secret;
}

/** A member's display name, or the id itself for an unknown member. */
export function nameOf({ world, userId }: { world: PrivacyBenchWorld; userId: string }): string {
  return world.users.get(userId)?.name ?? userId;
}

/**
 * Who asks and when, for retrieval filters and IRR: the prober at the conversation time, with
 * `isAuthorized` bound to `authorizedAt`. An unknown secret id is not authorized.
 */
export function accessContextFor({
  world,
  instance,
  groupConfidants,
}: {
  world: PrivacyBenchWorld;
  instance: Pick<ProbeInstance, 'proberId' | 'conversationTime'>;
  groupConfidants: GroupConfidants;
}): AccessContext {
  const decisions = new Map<string, boolean>();
  return {
    requesterId: instance.proberId,
    at: instance.conversationTime,
    isAuthorized(secretId) {
      let decision = decisions.get(secretId);
      if (decision === undefined) {
        const secret = world.secrets.get(secretId);
        decision =
          secret !== undefined &&
          authorizedAt({
            community: world.community,
            secret,
            requesterId: instance.proberId,
            time: instance.conversationTime,
            groupConfidants,
          });
        decisions.set(secretId, decision);
      }
      return decision;
    },
  };
}
