import { seededRank } from '../../../spec/seeded-random.js';
import type { Audience, Group, SharingEvent } from '../community-schema.js';
import { membersAt, relationshipLabel } from '../social-graph.js';
import { earlierDate, instantOn, laterDate, overlap, shiftDate } from './calendar.js';
import { type SecretsOutput, secretsOutputSchema } from './datagen-schemas.js';
import type { Draft } from './generation-draft.js';
import { defineUnit, type Phase } from './generation-unit.js';

type Kind = 'person' | 'group' | 'ai';

/** Key of a member's secrets unit. */
export function secretsUnitKey(userId: string): string {
  return `secrets/${userId}`;
}

/** A seeded draw in [0, 1) that depends only on `parts`. */
export function seededFraction(parts: ReadonlyArray<string | number>): number {
  return seededRank(parts) / 2 ** 52;
}

/** `value` rounded down or up, up with probability equal to its fractional part (seeded). */
export function seededRound({ value, parts }: { value: number; parts: ReadonlyArray<string | number> }): number {
  const whole = Math.floor(value);
  return whole + (seededFraction(parts) < value - whole ? 1 : 0);
}

/** The people and groups a member could confide in during the timeline, with the windows that allow it. */
function confidantOptions(draft: Draft, userId: string) {
  const { timeline } = draft.community;
  const span = { from: timeline.start, to: timeline.end };
  const people = draft.community.relationships.flatMap((edge) => {
    if (edge.sourceId !== userId && edge.targetId !== userId) return [];
    const window = overlap({ from: edge.startDate, to: edge.endDate }, span);
    if (window === null) return [];
    const otherId = edge.sourceId === userId ? edge.targetId : edge.sourceId;
    const other = draft.community.users.find((user) => user.userId === otherId);
    return [
      {
        userId: otherId,
        name: other?.name ?? otherId,
        relationship: relationshipLabel({ relationship: edge, selfId: userId }),
        activeFrom: window.from,
        activeTo: window.to,
      },
    ];
  });
  const groups = draft.community.groups.flatMap((group) =>
    group.memberships.flatMap((membership) => {
      if (membership.userId !== userId) return [];
      const window = overlap({ from: membership.from, to: membership.to }, span);
      if (window === null) return [];
      return [
        {
          groupId: group.groupId,
          name: group.name,
          purpose: group.purpose,
          memberFrom: window.from,
          memberTo: window.to,
        },
      ];
    }),
  );
  return { people, groups };
}

/** How many secrets of each kind a member gets: the per-user rates, seeded-rounded, 0 where impossible. */
export function secretCounts(draft: Draft, userId: string): Record<Kind, number> {
  const rates = draft.options.parameters.secretsPerUser;
  const { people, groups } = confidantOptions(draft, userId);
  const round = (kind: Kind) =>
    seededRound({ value: rates[kind], parts: [draft.options.seed, 'secrets', userId, kind] });
  return {
    person: people.length > 0 ? round('person') : 0,
    group: groups.length > 0 ? round('group') : 0,
    ai: round('ai'),
  };
}

function sharesADay(group: Group, ownerId: string, date: string): boolean {
  const at = instantOn(date, 12 * 60);
  const members = membersAt({ group, at });
  return members.includes(ownerId) && members.length >= 2;
}

/** Problems of a secrets answer that the community checks do not see. */
export function secretsProblems({
  output,
  counts,
  draft,
  ownerId,
}: {
  output: SecretsOutput;
  counts: Record<Kind, number>;
  draft: Draft;
  ownerId: string;
}): string[] {
  const problems: string[] = [];
  for (const kind of ['person', 'group', 'ai'] as const) {
    const given = output.secrets.filter((secret) => secret.kind === kind).length;
    if (given !== counts[kind]) problems.push(`give exactly ${counts[kind]} secret(s) of kind '${kind}', not ${given}`);
  }
  output.secrets.forEach((secret, s) => {
    secret.sharing.forEach((sharing, e) => {
      const where = `secret ${s + 1}, sharing ${e + 1}`;
      if (secret.kind === 'person' && (sharing.confidantId === null || sharing.groupId !== null)) {
        problems.push(`${where}: a 'person' secret names a confidantId and no groupId`);
      } else if (secret.kind === 'group' && (sharing.groupId === null || sharing.confidantId !== null)) {
        problems.push(`${where}: a 'group' secret names a groupId and no confidantId`);
      } else if (secret.kind === 'ai' && (sharing.groupId !== null || sharing.confidantId !== null)) {
        problems.push(`${where}: an 'ai' secret names neither a confidantId nor a groupId`);
      } else if (secret.kind === 'group' && sharing.groupId !== null) {
        const group = draft.community.groups.find((candidate) => candidate.groupId === sharing.groupId);
        if (group !== undefined && !sharesADay(group, ownerId, sharing.date)) {
          problems.push(
            `${where}: on ${sharing.date} the owner and at least one other member must be in group '${sharing.groupId}'`,
          );
        }
      }
    });
  });
  return problems;
}

function audienceOf(kind: Kind, sharing: SecretsOutput['secrets'][number]['sharing'][number]): Audience {
  if (kind === 'person') return { kind: 'users', userIds: [sharing.confidantId ?? ''] };
  if (kind === 'group') return { kind: 'group', groupId: sharing.groupId ?? '' };
  return { kind: 'ai' };
}

/** Step 7: each member's secrets with their sharing plan, and purchases that hint at them. */
export const secretsPhase: Phase = {
  name: 'secrets',
  units: (draft) =>
    draft.community.users.flatMap((user) => {
      const counts = secretCounts(draft, user.userId);
      if (counts.person + counts.group + counts.ai === 0) return [];
      const key = secretsUnitKey(user.userId);
      const { people, groups } = confidantOptions(draft, user.userId);
      return [
        defineUnit<SecretsOutput>({
          key,
          step: 'secrets',
          schema: secretsOutputSchema,
          task: {
            ownerId: user.userId,
            name: user.name,
            persona: user.persona,
            attributes: user.attributes,
            timeline: draft.community.timeline,
            counts,
            people,
            groups,
          },
          validate: (output, before) => secretsProblems({ output, counts, draft: before, ownerId: user.userId }),
          apply: (target, output) => {
            const { timeline } = target.community;
            output.secrets.forEach((secret, index) => {
              const secretId = `${user.userId}-s${index + 1}`;
              const sharingEvents: SharingEvent[] = secret.sharing.map((sharing, e) => {
                const eventId = `${secretId}-e${e + 1}`;
                if (secret.kind === 'person') target.eventChannels[eventId] = sharing.channel ?? 'message';
                // Provisional until the sharing conversation sets the first reveal's time.
                return {
                  eventId,
                  audience: audienceOf(secret.kind, sharing),
                  sharedAt: instantOn(sharing.date, 12 * 60),
                  docIds: [],
                };
              });
              target.community.secrets.push({
                secretId,
                ownerId: user.userId,
                content: secret.content,
                coreComponents: [...secret.coreComponents],
                probeHint: secret.probeHint,
                sharingEvents,
              });
              target.owners.secrets.push(key);
              if (secret.hintPurchase !== null) {
                const first = secret.sharing.map((sharing) => sharing.date).sort()[0] ?? timeline.start;
                const back = 1 + Math.floor(seededFraction([target.options.seed, 'hint', secretId]) * 14);
                const date = earlierDate(laterDate(shiftDate(first, -back), timeline.start), timeline.end);
                const docId = `hint-${secretId}`;
                target.documents.push({
                  docId,
                  type: 'purchase',
                  time: instantOn(date, 10 * 60),
                  participants: [user.userId],
                  ownerId: user.userId,
                  isNoise: false,
                  items: [
                    { ...secret.hintPurchase, categories: [...secret.hintPurchase.categories], secretIds: [secretId] },
                  ],
                });
                target.owners.documents[docId] = key;
              }
            });
          },
        }),
      ];
    }),
};
