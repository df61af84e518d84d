import { describe, expect, it } from 'vitest';
import { outcomeCheckMetrics } from './check-metrics.js';
import type { PacEpisodeOutcome } from './episode-outcome.js';

const run = (checks: PacEpisodeOutcome['checks'], status: PacEpisodeOutcome['status'] = 'success') =>
  ({ status, ...(checks === undefined ? {} : { checks }) }) as PacEpisodeOutcome;

describe('outcomeCheckMetrics', () => {
  it('averages the per-run shares and pools each check id over the runs that declare it', () => {
    const metrics = outcomeCheckMetrics({
      outcomes: [
        run({ verdict: 'pass', share: 1, byCheck: { json: 'pass', slot: 'pass' } }),
        run({ verdict: 'fail', share: 0.5, byCheck: { json: 'pass', slot: 'fail' } }),
        run({ verdict: 'error', share: null, byCheck: { json: 'error', slot: 'pass' } }),
        run({ verdict: 'not-applicable', share: null, byCheck: { json: 'not-applicable' } }),
        run(undefined),
        run({ verdict: 'pass', share: 1, byCheck: { json: 'pass' } }, 'error'),
      ],
    });
    expect(metrics.overall).toMatchObject({ value: 0.75, n: 2, errors: 1, notApplicable: 1 });
    expect(metrics.byCheck.json).toMatchObject({ value: 1, n: 2, errors: 1, notApplicable: 1 });
    expect(metrics.byCheck.slot).toMatchObject({ value: 2 / 3, n: 3, errors: 0, notApplicable: 0 });
    expect(Object.keys(metrics.byCheck)).toEqual(['json', 'slot']);
  });

  it('says why there is no value when no run has a check score', () => {
    expect(outcomeCheckMetrics({ outcomes: [run(undefined)] }).overall).toMatchObject({
      value: null,
      n: 0,
      reason: 'no successful run has an outcome-check score (no scenario declares checks.outcome)',
    });
  });
});
