import {
  type ExpansionOutput,
  expansionOutputSchema,
  type SeedPeopleOutput,
  type SeedRelationshipsOutput,
  seedPeopleOutputSchema,
  seedRelationshipsOutputSchema,
} from './datagen-schemas.js';
import { type Draft, nameOf, PROVISIONAL_STYLE, userIdAt } from './generation-draft.js';
import { defineUnit, type Phase } from './generation-unit.js';

/** Key of the seed-persona unit. */
export const SEEDS_UNIT = 'seeds';
/** Key of the seed-relationship unit. */
export const SEED_RELATIONSHIPS_UNIT = 'seed-relationships';

function addUser({
  draft,
  name,
  persona,
  isSeed,
  owner,
}: {
  draft: Draft;
  name: string;
  persona: string;
  isSeed: boolean;
  owner: string;
}): string {
  const userId = userIdAt(draft.community.users.length);
  draft.community.users.push({
    userId,
    name,
    isSeed,
    persona,
    attributes: {},
    style: structuredClone(PROVISIONAL_STYLE),
  });
  draft.owners.users.push(owner);
  return userId;
}

function addEdge({
  draft,
  edge,
  owner,
}: {
  draft: Draft;
  edge: {
    sourceId: string;
    targetId: string;
    relationship: string;
    inverseRelationship: string | null;
    description: string;
    kind: Draft['edgeKinds'][number];
  };
  owner: string;
}): void {
  // Windows are provisional until the timeline phase.
  draft.community.relationships.push({
    sourceId: edge.sourceId,
    targetId: edge.targetId,
    relationship: edge.relationship,
    ...(edge.inverseRelationship === null ? {} : { inverseRelationship: edge.inverseRelationship }),
    description: edge.description,
    permanence: 'permanent',
    startDate: draft.community.timeline.start,
    endDate: null,
  });
  draft.edgeKinds.push(edge.kind);
  draft.owners.relationships.push(owner);
}

function duplicateNames(names: readonly string[]): string[] {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const name of names) {
    const key = name.trim().toLowerCase();
    if (seen.has(key)) repeated.add(name);
    seen.add(key);
  }
  return [...repeated];
}

/** Step 1: the seed personas (the user's, named by datagen, or written by datagen). */
export const seedsPhase: Phase = {
  name: 'seeds',
  units: (draft) => {
    const count = draft.options.parameters.seedPersonas;
    const given = draft.options.seedPersonas.slice(0, count);
    return [
      defineUnit<SeedPeopleOutput>({
        key: SEEDS_UNIT,
        step: 'seeds',
        schema: seedPeopleOutputSchema,
        task: { count, timeline: draft.community.timeline, givenPersonas: given },
        validate: (output) => {
          const problems: string[] = [];
          if (output.people.length !== count)
            problems.push(`give exactly ${count} people, not ${output.people.length}`);
          for (const name of duplicateNames(output.people.map((person) => person.name))) {
            problems.push(`the name '${name}' is used twice`);
          }
          return problems;
        },
        apply: (target, output) => {
          output.people.forEach((person, index) => {
            addUser({
              draft: target,
              name: given[index]?.name ?? person.name,
              persona: person.persona,
              isSeed: true,
              owner: SEEDS_UNIT,
            });
          });
        },
      }),
    ];
  },
};

/** Step 2: relationships inferred between the seeds. */
export const seedRelationshipsPhase: Phase = {
  name: 'seed-relationships',
  units: (draft) => [
    defineUnit<SeedRelationshipsOutput>({
      key: SEED_RELATIONSHIPS_UNIT,
      step: 'seed-relationships',
      schema: seedRelationshipsOutputSchema,
      task: {
        people: draft.community.users.map(({ userId, name, persona }) => ({ userId, name, persona })),
      },
      validate: (output, before) =>
        before.community.users.length > 1 && output.relationships.length === 0
          ? ['relate at least two of the seed members']
          : [],
      apply: (target, output) => {
        for (const edge of output.relationships) addEdge({ draft: target, edge, owner: SEED_RELATIONSHIPS_UNIT });
      },
    }),
  ],
};

/** Step 3: one new member, tied to existing ones (one phase per member, in order). */
export function expansionPhase(): Phase {
  return {
    name: 'expansion',
    units: (draft) => {
      const newUserId = userIdAt(draft.community.users.length);
      const key = `expand/${newUserId}`;
      return [
        defineUnit<ExpansionOutput>({
          key,
          step: 'expansion',
          schema: expansionOutputSchema,
          task: {
            newUserId,
            members: draft.community.users.map(({ userId, name, persona }) => ({ userId, name, persona })),
            relationships: draft.community.relationships.map((edge) => ({
              between: [nameOf(draft, edge.sourceId), nameOf(draft, edge.targetId)],
              relationship: edge.relationship,
            })),
          },
          validate: (output, before) => {
            const taken = before.community.users.map((user) => user.name);
            return duplicateNames([...taken, output.name]).length > 0
              ? [`the name '${output.name}' is already taken; choose another`]
              : [];
          },
          apply: (target, output) => {
            const userId = addUser({
              draft: target,
              name: output.name,
              persona: output.persona,
              isSeed: false,
              owner: key,
            });
            for (const tie of output.ties) {
              addEdge({
                draft: target,
                edge: {
                  sourceId: userId,
                  targetId: tie.existingUserId,
                  relationship: tie.relationship,
                  inverseRelationship: tie.inverseRelationship,
                  description: tie.description,
                  kind: tie.kind,
                },
                owner: key,
              });
            }
          },
        }),
      ];
    },
  };
}
