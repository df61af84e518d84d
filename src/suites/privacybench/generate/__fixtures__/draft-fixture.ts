import { type Draft, emptyDraft } from '../generation-draft.js';
import { type GenerationOptions, resolveGenerationOptions } from '../generation-options.js';

/**
 * A small hand-built draft for phase tests: three members with profiles, a permanent family tie
 * (u01–u02), a work tie that ends on 2024-06-30 (u01–u03), and one group whose member u03
 * leaves on 2024-03-31. Owners are set as the phases would set them.
 */
export function draftFixture(overrides: Parameters<typeof resolveGenerationOptions>[0]['overrides'] = {}): Draft {
  const options: GenerationOptions = resolveGenerationOptions({
    communityId: 'fixture',
    overrides: { seed: 11, steps: 2, ...overrides },
  });
  const draft = emptyDraft(options);
  const style = { texting: 'short', blogging: 'long', personalityTraits: ['calm'] };
  draft.community.users = [
    {
      userId: 'u01',
      name: 'Ada Quinn',
      isSeed: true,
      persona: 'An accountant.',
      attributes: {
        occupation: [
          { value: 'junior accountant', category: 'demographic', validFrom: '2018-01-01', validTo: '2024-06-30' },
          { value: 'senior accountant', category: 'demographic', validFrom: '2024-07-01', validTo: null },
        ],
        hobby: [{ value: 'bouldering', category: 'psychographic', validFrom: '2015-01-01', validTo: null }],
      },
      style,
    },
    { userId: 'u02', name: 'Bruno Silva', isSeed: true, persona: 'A baker.', attributes: {}, style },
    { userId: 'u03', name: 'Chloe Park', isSeed: true, persona: 'A nurse.', attributes: {}, style },
  ];
  draft.owners.users = ['seeds', 'seeds', 'seeds'];
  draft.community.relationships = [
    {
      sourceId: 'u01',
      targetId: 'u02',
      relationship: 'brother',
      inverseRelationship: 'sister',
      permanence: 'permanent',
      startDate: '1990-01-01',
      endDate: null,
    },
    {
      sourceId: 'u01',
      targetId: 'u03',
      relationship: 'colleague',
      permanence: 'temporary',
      startDate: '2020-01-01',
      endDate: '2024-06-30',
    },
  ];
  draft.edgeKinds = ['family', 'work'];
  draft.owners.relationships = ['timeline', 'timeline'];
  draft.community.groups = [
    {
      groupId: 'g1',
      name: 'Climbing club',
      sharedAttribute: 'bouldering',
      purpose: 'sessions and gear',
      memberships: [
        { userId: 'u01', from: '2023-01-01', to: null },
        { userId: 'u02', from: '2023-01-01', to: null },
        { userId: 'u03', from: '2023-01-01', to: '2024-03-31' },
      ],
    },
  ];
  draft.owners.groups = ['groups'];
  return draft;
}
