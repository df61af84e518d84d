import { type SeededRandom, seededRandom, seededRank } from '../../../spec/seeded-random.js';
import { isWithinWindow } from '../community-time.js';
import { membersAt } from '../social-graph.js';
import { daysBetween, instantOn, overlap, shiftDate, stepWindows } from './calendar.js';
import type { Draft } from './generation-draft.js';
import { seededRound } from './secrets-phase.js';

/** The mundane document kinds planned per time step. */
export const MUNDANE_TYPES = ['chat', 'group-chat', 'ai-chat', 'blog', 'purchase'] as const;

/** One mundane document kind. */
export type MundaneType = (typeof MUNDANE_TYPES)[number];

/** One requested document: when, with whom, and what it should (not) reveal. */
export type DocumentSlot = {
  slot: number;
  date: string;
  /** Start instant of the document. */
  time: string;
  noise: boolean;
  revealAttribute: { name: string; value: string } | null;
  /** Members of the document: the owner first. */
  participants: string[];
  counterpartId: string | null;
  channel: 'message' | 'email' | null;
  groupId: string | null;
};

/** The documents one datagen call writes: one owner, one kind, one time step. */
export type DocumentBatch = {
  key: string;
  step: number;
  window: { from: string; to: string };
  userId: string;
  type: MundaneType;
  slots: DocumentSlot[];
};

function perUser(draft: Draft, type: MundaneType): number {
  const parameters = draft.options.parameters;
  switch (type) {
    case 'chat':
      return parameters.privateConversationsPerUser;
    case 'group-chat':
      return parameters.groupConversationsPerUser;
    case 'ai-chat':
      return parameters.aiConversationsPerUser;
    case 'blog':
      return parameters.blogPostsPerUser;
    case 'purchase':
      return parameters.purchasesPerUser;
  }
}

/** Where a document of `type` can be placed in a step window: partners, groups or any day. */
type Place = { counterpartId: string | null; groupId: string | null; days: string[] };

function daysOf(window: { from: string; to: string }): string[] {
  return Array.from({ length: daysBetween(window.from, window.to) + 1 }, (_, index) => shiftDate(window.from, index));
}

function placesFor({
  draft,
  userId,
  type,
  window,
}: {
  draft: Draft;
  userId: string;
  type: MundaneType;
  window: { from: string; to: string };
}): Place[] {
  if (type === 'chat') {
    return draft.community.relationships.flatMap((edge) => {
      if (edge.sourceId !== userId && edge.targetId !== userId) return [];
      const active = overlap({ from: edge.startDate, to: edge.endDate }, window);
      if (active === null) return [];
      const counterpartId = edge.sourceId === userId ? edge.targetId : edge.sourceId;
      return [{ counterpartId, groupId: null, days: daysOf({ from: active.from, to: active.to ?? window.to }) }];
    });
  }
  if (type === 'group-chat') {
    return draft.community.groups.flatMap((group) => {
      const days = daysOf(window).filter((day) => {
        const members = membersAt({ group, at: instantOn(day, 12 * 60) });
        return members.includes(userId) && members.length >= 2;
      });
      return days.length === 0 ? [] : [{ counterpartId: null, groupId: group.groupId, days }];
    });
  }
  return [{ counterpartId: null, groupId: null, days: daysOf(window) }];
}

function revealFor({
  draft,
  userId,
  time,
  random,
}: {
  draft: Draft;
  userId: string;
  time: string;
  random: SeededRandom;
}) {
  const user = draft.community.users.find((candidate) => candidate.userId === userId);
  const options = Object.entries(user?.attributes ?? {}).flatMap(([name, values]) =>
    values
      .filter((value) => isWithinWindow({ from: value.validFrom, to: value.validTo, at: time }))
      .map((value) => ({ name, value: value.value })),
  );
  return options.length === 0 ? null : random.pick(options);
}

/**
 * Plans every mundane document (privacybench.md §2 step 8): per member and kind, the per-user
 * volume (seeded-rounded) is spread evenly over the time steps; each document gets a seeded day
 * inside its step where it is possible (a pair chat on a day the tie is active, a group chat on a
 * day the owner and another member are in the group), a start between 08:00 and 18:00, the noise
 * flag with the configured share, and, for non-noise documents, an attribute of the owner valid
 * that day to reveal with the configured probability. Slots are batched `docsPerCall` at a time.
 * Deterministic: the same draft and seed give the same plan, so a resumed generation asks again
 * for exactly the missing batches.
 */
export function planDocuments(draft: Draft): DocumentBatch[] {
  const { options } = draft;
  const { timeline } = draft.community;
  const windows = stepWindows({ start: timeline.start, end: timeline.end, steps: options.steps });
  const batches: DocumentBatch[] = [];
  windows.forEach((window, step) => {
    for (const user of draft.community.users) {
      for (const type of MUNDANE_TYPES) {
        const total = seededRound({ value: perUser(draft, type), parts: [options.seed, 'volume', user.userId, type] });
        const count = Math.floor(((step + 1) * total) / windows.length) - Math.floor((step * total) / windows.length);
        if (count === 0) continue;
        const places = placesFor({ draft, userId: user.userId, type, window });
        if (places.length === 0) continue;
        const random = seededRandom(seededRank([options.seed, 'plan', step, user.userId, type]) % 4_294_967_296);
        const noiseShare =
          type === 'blog' ? options.parameters.blogNoiseRatio : options.parameters.conversationNoiseRatio;
        const slots: DocumentSlot[] = [];
        for (let index = 0; index < count; index += 1) {
          const place = random.pick(places);
          const date = random.pick(place.days);
          const time = instantOn(date, 8 * 60 + random.int(0, 600));
          const noise = random.chance(noiseShare);
          const revealAttribute =
            !noise && random.chance(options.parameters.attributeRevealProbability)
              ? revealFor({ draft, userId: user.userId, time, random })
              : null;
          const group = draft.community.groups.find((candidate) => candidate.groupId === place.groupId);
          const participants =
            type === 'chat' && place.counterpartId !== null
              ? [user.userId, place.counterpartId]
              : group !== undefined
                ? [user.userId, ...membersAt({ group, at: time }).filter((id) => id !== user.userId)]
                : [user.userId];
          slots.push({
            slot: index,
            date,
            time,
            noise,
            revealAttribute,
            participants,
            counterpartId: place.counterpartId,
            channel: type === 'chat' ? (random.chance(0.2) ? 'email' : 'message') : null,
            groupId: place.groupId,
          });
        }
        slots.sort((a, b) => a.time.localeCompare(b.time) || a.slot - b.slot);
        for (let start = 0; start < slots.length; start += options.docsPerCall) {
          const chunk = slots
            .slice(start, start + options.docsPerCall)
            .map((slot, index) => ({ ...slot, slot: index }));
          batches.push({
            key: `docs/${step + 1}/${user.userId}/${type}/${start / options.docsPerCall + 1}`,
            step: step + 1,
            window,
            userId: user.userId,
            type,
            slots: chunk,
          });
        }
      }
    }
  });
  return batches;
}
