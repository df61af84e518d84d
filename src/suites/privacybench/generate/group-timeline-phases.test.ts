import { describe, expect, it } from 'vitest';
import { draftFixture } from './__fixtures__/draft-fixture.js';
import { groupsPhase, hasSharedDay, timelinePhase } from './group-timeline-phases.js';

const timeline = { start: '2024-01-01', end: '2024-12-31' };

describe('hasSharedDay', () => {
  it('needs two members on one day inside the timeline', () => {
    const member = (userId: string, from: string, to: string | null) => ({ userId, from, to });
    expect(
      hasSharedDay({
        group: { memberships: [member('a', '2020-01-01', null), member('b', '2024-12-31', null)] },
        timeline,
      }),
    ).toBe(true);
    expect(
      hasSharedDay({
        group: { memberships: [member('a', '2020-01-01', '2024-03-01'), member('b', '2024-03-02', null)] },
        timeline,
      }),
    ).toBe(false);
    expect(
      hasSharedDay({
        group: { memberships: [member('a', '2020-01-01', '2023-12-31'), member('b', '2020-01-01', '2023-12-31')] },
        timeline,
      }),
    ).toBe(false);
    expect(
      hasSharedDay({
        group: { memberships: [member('a', '2024-02-01', null), member('a', '2024-01-01', null)] },
        timeline,
      }),
    ).toBe(false);
  });
});

describe('groups and timeline phases', () => {
  it('groups: checks the count and shared days, and numbers the groups', () => {
    const draft = draftFixture({ parameters: { groups: 1 } });
    draft.community.groups = [];
    draft.owners.groups = [];
    const [unit] = groupsPhase.units(draft);
    const lonely = {
      name: 'G',
      sharedAttribute: 's',
      purpose: 'p',
      memberships: [{ userId: 'u01', from: '2024-01-01', to: null }],
    };
    expect(unit?.validate({ groups: [lonely, lonely] }, draft)).toEqual([
      'form exactly 1 groups, not 2',
      "group 'G' never has two members at the same time during the timeline",
      "group 'G' never has two members at the same time during the timeline",
    ]);
    unit?.apply(draft, {
      groups: [{ ...lonely, memberships: [...lonely.memberships, { userId: 'u02', from: '2024-02-01', to: null }] }],
    });
    expect(draft.community.groups.map((group) => group.groupId)).toEqual(['g1']);
    expect(draft.owners.groups).toEqual(['groups']);
    expect(groupsPhase.units(draftFixture({ parameters: { groups: 0 } }))).toEqual([]);
  });

  it('timeline: one window per edge, family ties permanent; transitions are appended', () => {
    const draft = draftFixture();
    const [unit] = timelinePhase.units(draft);
    const window = (edge: number, permanence: 'permanent' | 'temporary', endDate: string | null) => ({
      edge,
      permanence,
      startDate: '2021-01-01',
      endDate,
    });
    expect(
      unit?.validate(
        { windows: [window(0, 'temporary', '2024-05-01'), window(5, 'temporary', null)], transitions: [] },
        draft,
      ),
    ).toEqual([
      'edge 0 is a family tie: it must be permanent with endDate null',
      'give exactly one window for edge 1, not 0',
      'there is no edge 5',
    ]);
    unit?.apply(draft, {
      windows: [window(0, 'permanent', null), window(1, 'temporary', '2024-04-30')],
      transitions: [
        {
          sourceId: 'u01',
          targetId: 'u03',
          relationship: 'friend',
          inverseRelationship: null,
          description: 'stayed friends',
          kind: 'friend',
          permanence: 'temporary',
          startDate: '2024-05-01',
          endDate: null,
        },
      ],
    });
    expect(draft.community.relationships.map((edge) => [edge.relationship, edge.startDate, edge.endDate])).toEqual([
      ['brother', '2021-01-01', null],
      ['colleague', '2021-01-01', '2024-04-30'],
      ['friend', '2024-05-01', null],
    ]);
    expect(draft.owners.relationships).toEqual(['timeline', 'timeline', 'timeline']);
    expect(draft.edgeKinds).toEqual(['family', 'work', 'friend']);
  });
});
