import { describe, expect, it } from 'vitest';
import { meanOverGroups } from './mean-over-groups.js';

describe('meanOverGroups', () => {
  it('averages group values without weighting, summing the groups’ counts', () => {
    expect(
      meanOverGroups([
        { value: 0.5, n: 10, errors: 1, notApplicable: 0 },
        { value: 1, n: 2, errors: 0, notApplicable: 3 },
        { value: null, n: 0, errors: 4, notApplicable: 0 },
      ]),
    ).toEqual({ value: 0.75, n: 2, errors: 5, notApplicable: 3, stderr: 0.25 });
  });

  it('says why it has no value', () => {
    expect(meanOverGroups([])).toEqual({
      value: null,
      n: 0,
      errors: 0,
      notApplicable: 0,
      reason: 'no group to average',
    });
    expect(
      meanOverGroups([
        { value: null, n: 0, errors: 2, notApplicable: 0 },
        { value: null, n: 0, errors: 1, notApplicable: 0, reason: 'all 1 runs were error' },
      ]),
    ).toEqual({
      value: null,
      n: 0,
      errors: 3,
      notApplicable: 0,
      reason: 'no group has a value (all 1 runs were error)',
    });
  });
});
