import type { Group } from '../community-schema.js';
import { laterDate } from './calendar.js';
import { type GroupsOutput, groupsOutputSchema, type TimelineOutput, timelineOutputSchema } from './datagen-schemas.js';
import { type Draft, nameOf } from './generation-draft.js';
import { defineUnit, type Phase } from './generation-unit.js';

/** Key of the groups unit. */
export const GROUPS_UNIT = 'groups';
/** Key of the relationship-window unit. */
export const TIMELINE_UNIT = 'timeline';

/** The id of the group at 0-based `index`: `g1`, `g2`, … */
export function groupIdAt(index: number): string {
  return `g${index + 1}`;
}

/**
 * Whether at least two members share some day of the timeline. A shared day exists iff one
 * exists at the (timeline-clamped) start of some membership, so those days are enough to test.
 */
export function hasSharedDay({
  group,
  timeline,
}: {
  group: Pick<Group, 'memberships'>;
  timeline: { start: string; end: string };
}): boolean {
  return group.memberships.some((candidate) => {
    const day = laterDate(candidate.from, timeline.start);
    if (day > timeline.end) return false;
    const present = new Set(
      group.memberships
        .filter((membership) => membership.from <= day && (membership.to === null || membership.to >= day))
        .map((membership) => membership.userId),
    );
    return present.size >= 2;
  });
}

function memberList(draft: Draft) {
  return draft.community.users.map(({ userId, name, persona }) => ({ userId, name, persona }));
}

/** Step 4: groups around a shared attribute, with membership periods. */
export const groupsPhase: Phase = {
  name: 'groups',
  units: (draft) => {
    const count = draft.options.parameters.groups;
    if (count === 0) return [];
    return [
      defineUnit<GroupsOutput>({
        key: GROUPS_UNIT,
        step: 'groups',
        schema: groupsOutputSchema,
        task: {
          count,
          timeline: draft.community.timeline,
          members: memberList(draft),
          relationships: draft.community.relationships.map((edge) => ({
            sourceId: edge.sourceId,
            targetId: edge.targetId,
            relationship: edge.relationship,
          })),
        },
        validate: (output, before) => {
          const problems: string[] = [];
          if (output.groups.length !== count)
            problems.push(`form exactly ${count} groups, not ${output.groups.length}`);
          output.groups.forEach((group) => {
            if (!hasSharedDay({ group, timeline: before.community.timeline })) {
              problems.push(`group '${group.name}' never has two members at the same time during the timeline`);
            }
          });
          return problems;
        },
        apply: (target, output) => {
          for (const group of output.groups) {
            target.community.groups.push({
              groupId: groupIdAt(target.community.groups.length),
              name: group.name,
              sharedAttribute: group.sharedAttribute,
              purpose: group.purpose,
              memberships: group.memberships.map(({ userId, from, to }) => ({ userId, from, to })),
            });
            target.owners.groups.push(GROUPS_UNIT);
          }
        },
      }),
    ];
  },
};

/** Step 5: validity windows of every edge, plus edges that replace ended ones. */
export const timelinePhase: Phase = {
  name: 'timeline',
  units: (draft) => {
    const edges = draft.community.relationships;
    return [
      defineUnit<TimelineOutput>({
        key: TIMELINE_UNIT,
        step: 'timeline',
        schema: timelineOutputSchema,
        task: {
          timeline: draft.community.timeline,
          members: draft.community.users.map(({ userId, name }) => ({ userId, name })),
          relationships: edges.map((edge, index) => ({
            edge: index,
            sourceId: edge.sourceId,
            targetId: edge.targetId,
            between: [nameOf(draft, edge.sourceId), nameOf(draft, edge.targetId)],
            relationship: edge.relationship,
            kind: draft.edgeKinds[index] ?? 'other',
          })),
        },
        validate: (output, before) => {
          const problems: string[] = [];
          const counts = new Map<number, number>();
          for (const window of output.windows) counts.set(window.edge, (counts.get(window.edge) ?? 0) + 1);
          before.community.relationships.forEach((_edge, index) => {
            const count = counts.get(index) ?? 0;
            if (count !== 1) problems.push(`give exactly one window for edge ${index}, not ${count}`);
            const window = output.windows.find((candidate) => candidate.edge === index);
            if (before.edgeKinds[index] === 'family' && window !== undefined && window.permanence !== 'permanent') {
              problems.push(`edge ${index} is a family tie: it must be permanent with endDate null`);
            }
          });
          for (const edge of counts.keys()) {
            if (edge >= before.community.relationships.length) problems.push(`there is no edge ${edge}`);
          }
          output.transitions.forEach((transition, index) => {
            if (transition.kind === 'family' && transition.permanence !== 'permanent') {
              problems.push(`transition ${index} is a family tie: it must be permanent with endDate null`);
            }
          });
          return problems;
        },
        apply: (target, output) => {
          for (const window of output.windows) {
            const edge = target.community.relationships[window.edge];
            if (edge === undefined) continue;
            edge.permanence = window.permanence;
            edge.startDate = window.startDate;
            edge.endDate = window.endDate;
          }
          for (const transition of output.transitions) {
            target.community.relationships.push({
              sourceId: transition.sourceId,
              targetId: transition.targetId,
              relationship: transition.relationship,
              ...(transition.inverseRelationship === null
                ? {}
                : { inverseRelationship: transition.inverseRelationship }),
              description: transition.description,
              permanence: transition.permanence,
              startDate: transition.startDate,
              endDate: transition.endDate,
            });
            target.edgeKinds.push(transition.kind);
            target.owners.relationships.push(TIMELINE_UNIT);
          }
          target.owners.relationships = target.owners.relationships.map(() => TIMELINE_UNIT);
        },
      }),
    ];
  },
};
