import { describe, expect, it } from 'vitest';
import { draftFixture } from './__fixtures__/draft-fixture.js';
import { profilePhase, profileProblems } from './profile-phase.js';

const value = (
  name: string,
  category: 'demographic' | 'psychographic' | 'behavioral',
  validFrom: string,
  validTo: string | null,
) => ({
  name,
  value: `${name} ${validFrom}`,
  category,
  validFrom,
  validTo,
});
const style = { texting: 't', blogging: 'b', personalityTraits: ['calm'] };

describe('profile phase', () => {
  it('needs every category and no overlapping values of one attribute', () => {
    expect(
      profileProblems({
        attributes: [
          value('job', 'demographic', '2020-01-01', '2024-06-30'),
          value('job', 'demographic', '2024-06-30', null),
          value('x', 'demographic', '2020-01-01', null),
        ],
        style,
      }),
    ).toEqual([
      'give at least one psychographic attribute',
      'give at least one behavioral attribute',
      "two values of 'job' overlap in time ('job 2020-01-01' and 'job 2024-06-30'); end one before the next starts",
    ]);
  });

  it('writes time-bounded attributes and the style of one member per unit', () => {
    const draft = draftFixture();
    const units = profilePhase.units(draft);
    expect(units.map((unit) => unit.key)).toEqual(['profile/u01', 'profile/u02', 'profile/u03']);
    expect(units[2]?.task).toMatchObject({
      userId: 'u03',
      relationships: [{ with: 'Ada Quinn', relationship: 'colleague', from: '2020-01-01', to: '2024-06-30' }],
    });
    units[1]?.apply(draft, {
      attributes: [
        value('job', 'demographic', '2020-01-01', '2024-06-30'),
        value('job', 'demographic', '2024-07-01', null),
        value('faith', 'psychographic', '2000-01-01', null),
        value('runs', 'behavioral', '2000-01-01', null),
      ],
      style: { texting: 'lots of emoji', blogging: 'rare', personalityTraits: ['bold'] },
    });
    const user = draft.community.users[1];
    expect(Object.keys(user?.attributes ?? {})).toEqual(['job', 'faith', 'runs']);
    expect(user?.attributes.job?.map((entry) => entry.validTo)).toEqual(['2024-06-30', null]);
    expect(user?.style?.texting).toBe('lots of emoji');
  });
});
