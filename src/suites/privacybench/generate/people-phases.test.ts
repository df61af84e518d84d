import { describe, expect, it } from 'vitest';
import { emptyDraft } from './generation-draft.js';
import { resolveGenerationOptions } from './generation-options.js';
import { expansionPhase, seedRelationshipsPhase, seedsPhase } from './people-phases.js';

function freshDraft(seedPersonas: Array<{ persona: string; name?: string }> = []) {
  return emptyDraft(
    resolveGenerationOptions({
      communityId: 'c',
      overrides: { parameters: { users: 4, seedPersonas: 2 }, seedPersonas },
    }),
  );
}

describe('people phases', () => {
  it('seeds: checks the count and unique names, and keeps names the user gave', () => {
    const draft = freshDraft([{ persona: 'A sailor.', name: 'Marta Vale' }, { persona: 'A poet.' }]);
    const [unit] = seedsPhase.units(draft);
    expect(unit?.task).toEqual({
      count: 2,
      timeline: draft.community.timeline,
      givenPersonas: [{ persona: 'A sailor.', name: 'Marta Vale' }, { persona: 'A poet.' }],
    });
    expect(unit?.validate({ people: [{ name: 'A', persona: 'x' }] }, draft)).toEqual(['give exactly 2 people, not 1']);
    expect(
      unit?.validate(
        {
          people: [
            { name: 'Ana', persona: 'x' },
            { name: 'ana ', persona: 'y' },
          ],
        },
        draft,
      ),
    ).toEqual(["the name 'ana' is used twice"]);
    unit?.apply(draft, {
      people: [
        { name: 'Someone', persona: 'A sailor at sea.' },
        { name: 'Ben', persona: 'A poet.' },
      ],
    });
    expect(draft.community.users.map((user) => [user.userId, user.name, user.isSeed])).toEqual([
      ['u01', 'Marta Vale', true],
      ['u02', 'Ben', true],
    ]);
    expect(draft.owners.users).toEqual(['seeds', 'seeds']);
  });

  it('seed relationships and expansion add edges with provisional windows and their owners', () => {
    const draft = freshDraft();
    seedsPhase.units(draft)[0]?.apply(draft, {
      people: [
        { name: 'Ana', persona: 'x' },
        { name: 'Ben', persona: 'y' },
      ],
    });
    const [relate] = seedRelationshipsPhase.units(draft);
    expect(relate?.validate({ relationships: [] }, draft)).toEqual(['relate at least two of the seed members']);
    relate?.apply(draft, {
      relationships: [
        {
          sourceId: 'u01',
          targetId: 'u02',
          relationship: 'sister',
          inverseRelationship: null,
          description: 'd',
          kind: 'family',
        },
      ],
    });
    const [expand] = expansionPhase().units(draft);
    expect(expand?.key).toBe('expand/u03');
    const tie = {
      existingUserId: 'u02',
      relationship: 'manager',
      inverseRelationship: 'direct report',
      description: 'd',
      kind: 'work',
    };
    expect(expand?.validate({ name: 'ANA', persona: 'p', ties: [tie] }, draft)).toEqual([
      "the name 'ANA' is already taken; choose another",
    ]);
    expand?.apply(draft, { name: 'Cleo', persona: 'p', ties: [tie] });
    expect(draft.community.relationships).toEqual([
      {
        sourceId: 'u01',
        targetId: 'u02',
        relationship: 'sister',
        description: 'd',
        permanence: 'permanent',
        startDate: '2024-01-01',
        endDate: null,
      },
      {
        sourceId: 'u03',
        targetId: 'u02',
        relationship: 'manager',
        inverseRelationship: 'direct report',
        description: 'd',
        permanence: 'permanent',
        startDate: '2024-01-01',
        endDate: null,
      },
    ]);
    expect(draft.edgeKinds).toEqual(['family', 'work']);
    expect(draft.owners.relationships).toEqual(['seed-relationships', 'expand/u03']);
    expect(draft.owners.users).toEqual(['seeds', 'seeds', 'expand/u03']);
  });
});
