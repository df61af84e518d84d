import type { TimedValue } from '../community-schema.js';
import { relationshipLabel } from '../social-graph.js';
import { overlap } from './calendar.js';
import { type ProfileOutput, profileOutputSchema } from './datagen-schemas.js';
import { type Draft, nameOf } from './generation-draft.js';
import { defineUnit, type Phase } from './generation-unit.js';
import { profileUnitKey } from './issue-owner.js';

const CATEGORIES = ['demographic', 'psychographic', 'behavioral'] as const;

/** What datagen is told about one member when enriching their profile. */
function profileTask(draft: Draft, userId: string) {
  const user = draft.community.users.find((candidate) => candidate.userId === userId);
  return {
    userId,
    name: user?.name ?? userId,
    persona: user?.persona ?? '',
    timeline: draft.community.timeline,
    relationships: draft.community.relationships
      .filter((edge) => edge.sourceId === userId || edge.targetId === userId)
      .map((edge) => ({
        with: nameOf(draft, edge.sourceId === userId ? edge.targetId : edge.sourceId),
        // What the other person is to this member.
        relationship: relationshipLabel({ relationship: edge, selfId: userId }),
        from: edge.startDate,
        to: edge.endDate,
      })),
    groups: draft.community.groups.flatMap((group) =>
      group.memberships
        .filter((membership) => membership.userId === userId)
        .map((membership) => ({
          name: group.name,
          sharedAttribute: group.sharedAttribute,
          from: membership.from,
          to: membership.to,
        })),
    ),
  };
}

/** Problems of a profile answer that the community checks do not see. */
export function profileProblems(output: ProfileOutput): string[] {
  const problems: string[] = [];
  for (const category of CATEGORIES) {
    if (!output.attributes.some((attribute) => attribute.category === category)) {
      problems.push(`give at least one ${category} attribute`);
    }
  }
  output.attributes.forEach((a, i) => {
    output.attributes.forEach((b, j) => {
      if (j <= i || a.name !== b.name) return;
      if (overlap({ from: a.validFrom, to: a.validTo }, { from: b.validFrom, to: b.validTo }) !== null) {
        problems.push(
          `two values of '${a.name}' overlap in time ('${a.value}' and '${b.value}'); end one before the next starts`,
        );
      }
    });
  });
  return problems;
}

/** Step 6: profile enrichment, one unit per member. */
export const profilePhase: Phase = {
  name: 'profiles',
  units: (draft) =>
    draft.community.users.map((user) => {
      const key = profileUnitKey(user.userId);
      return defineUnit<ProfileOutput>({
        key,
        step: 'profile',
        schema: profileOutputSchema,
        task: profileTask(draft, user.userId),
        validate: (output) => profileProblems(output),
        apply: (target, output) => {
          const member = target.community.users.find((candidate) => candidate.userId === user.userId);
          if (member === undefined) return;
          const attributes: Record<string, TimedValue[]> = {};
          for (const { name, value, category, validFrom, validTo } of output.attributes) {
            attributes[name] = [...(attributes[name] ?? []), { value, category, validFrom, validTo }];
          }
          member.attributes = attributes;
          member.style = {
            texting: output.style.texting,
            blogging: output.style.blogging,
            personalityTraits: [...output.style.personalityTraits],
          };
        },
      });
    }),
};
