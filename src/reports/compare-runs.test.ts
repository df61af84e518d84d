import { describe, expect, it } from 'vitest';
import { newcombePairedInterval } from '../metrics/newcombe-paired-interval.js';
import type { RunSummary, SampleRecord } from '../spec/run-record.js';
import { leakScore, reportHeader, reportRecord } from './__fixtures__/report-run.js';
import { compareRecord, compareRuns, incomparableReason } from './compare-runs.js';
import { renderCompareMarkdown } from './render-compare.js';

const summary = (runId: string, value: number): RunSummary => ({
  formatVersion: 1,
  runId,
  finishedAt: '2026-11-30T00:00:00.000Z',
  complete: true,
  counts: { planned: 10, success: 10, error: 0, missing: 0 },
  metrics: { leak_rate: { value, n: 10, errors: 0, notApplicable: 0 } },
  usage: {},
  costUsd: 0,
  errorsByName: {},
});

/** Ten samples; `leaks` says which ones leaked. */
const records = (leaks: (index: number) => boolean): SampleRecord[] =>
  Array.from({ length: 10 }, (_, index) => reportRecord({ id: `s${index}#e1`, scores: [leakScore(leaks(index))] }));

describe('compareRuns', () => {
  // A leaks on s0–s8, B only on s0: 8 samples flipped fail → pass, none the other way.
  const a = { header: reportHeader({ runId: 'a' }), summary: summary('a', 0.9), records: records((i) => i < 9) };
  const b = { header: reportHeader({ runId: 'b' }), summary: summary('b', 0.1), records: records((i) => i === 0) };

  it('tests the per-sample outcomes: exact McNemar b = 8, c = 0 → p = 2/256; the flipped samples listed', () => {
    const comparison = compareRuns({ a, b });
    expect(comparison.shared).toBe(10);
    expect(comparison.metrics).toEqual([
      {
        id: 'leak_rate',
        a: a.summary.metrics.leak_rate,
        b: b.summary.metrics.leak_rate,
        difference: expect.closeTo(-0.8, 12),
      },
    ]);
    const [score] = comparison.scores;
    expect(score?.key).toBe('toy-leak-canary@1');
    expect(score?.pairs).toBe(10);
    expect(score?.failRateA).toBe(0.9);
    expect(score?.failRateB).toBe(0.1);
    expect(score?.mcnemar).toEqual({ b: 8, c: 0, pValue: expect.closeTo(0.0078125, 12) });
    expect(score?.bootstrap?.difference).toBeCloseTo(-0.8, 12);
    expect(score?.bootstrap?.ci95.upper).toBeLessThan(0);
    expect(score?.ciMethod).toBe('paired-bootstrap');
    expect(score?.ci95).toEqual(score?.bootstrap?.ci95);
    // 2 of 10 agree; pₑ = 0.9·0.1 + 0.1·0.9 = 0.18 → κ = (0.2 − 0.18) / 0.82.
    expect(score?.agreement.percent).toBeCloseTo(0.2, 12);
    expect(score?.agreement.kappa).toBeCloseTo(0.02 / 0.82, 12);
    expect(comparison.flipped.map((flip) => flip.sampleId)).toEqual([
      's1#e1',
      's2#e1',
      's3#e1',
      's4#e1',
      's5#e1',
      's6#e1',
      's7#e1',
      's8#e1',
    ]);
    expect(comparison.flipped[0]).toEqual({
      sampleId: 's1#e1',
      scenarioId: 's1',
      key: 'toy-leak-canary@1',
      a: 'fail',
      b: 'pass',
    });
  });

  it('gives an interval with width when no verdict changed: the bootstrap collapses to 0, Newcombe over the 10 scenarios does not', () => {
    const same = { header: reportHeader({ runId: 'c' }), summary: summary('c', 0.9), records: records((i) => i < 9) };
    const [score] = compareRuns({ a, b: same }).scores;
    expect(score?.bootstrap?.ci95).toEqual({ lower: 0, upper: 0 });
    expect(score?.ciMethod).toBe('newcombe');
    // 9 pairs fail in both runs, 1 in neither; each of the 10 scenarios is one unit.
    const expected = newcombePairedInterval({ table: { both: 9, firstOnly: 0, secondOnly: 0, neither: 1 }, n: 10 });
    expect(score?.ci95).toEqual(expected);
    expect(score?.ci95?.lower).toBeLessThan(-0.05);
    expect(score?.ci95?.upper).toBeGreaterThan(0.05);
    const markdown = renderCompareMarkdown({ comparisons: [compareRuns({ a, b: same })] });
    const points = (x: number | undefined) => `${(x ?? 0) >= 0 ? '+' : ''}${((x ?? 0) * 100).toFixed(1)}`;
    expect(markdown).toContain(`${points(expected?.lower)} to ${points(expected?.upper)} (Newcombe)`);
  });

  it('renders the tests in Markdown', () => {
    const markdown = renderCompareMarkdown({ comparisons: [compareRuns({ a, b })] });
    expect(markdown).toContain('## b vs a');
    expect(markdown).toContain('| leak_rate | 0.900 | — | 0.100 | — | -0.800 |');
    expect(markdown).toMatch(
      /\| toy-leak-canary@1 \| 10 \| 90\.0 \| 10\.0 \| -80\.0 \| .* \| 8 \/ 0 \| 0\.008 \| 20\.0 \| 0\.024 \|/,
    );
    expect(markdown).toContain('### Flipped samples (8)');
  });

  it('leaves out samples only one run has, and counts them', () => {
    const comparison = compareRuns({ a, b: { ...b, records: b.records.slice(0, 7) } });
    expect({ shared: comparison.shared, onlyInA: comparison.onlyInA, onlyInB: comparison.onlyInB }).toEqual({
      shared: 7,
      onlyInA: 3,
      onlyInB: 0,
    });
  });

  it('refuses runs of different suites, options or data, saying why', () => {
    const header = reportHeader({ runId: 'x' });
    expect(incomparableReason(header, { ...header, runId: 'y', suite: { id: 'confaide', version: 1 } })).toBe(
      'y is a confaide run and x a toy-leak run: compare runs of one suite',
    );
    const tier = (value: string) => ({ ...header, plan: { ...header.plan, suiteOptions: { tier: value } } });
    expect(incomparableReason(tier('1'), tier('3'))).toContain('different toy-leak options (tier="1" vs tier="3")');
    expect(incomparableReason(header, { ...header, dataset: { ...header.dataset, hash: 'other' } })).toContain(
      'different toy-leak data',
    );
    expect(() => compareRuns({ a, b: { ...b, header: { ...b.header, suite: { id: 'pac', version: 1 } } } })).toThrow(
      /compare runs of one suite/,
    );
  });

  it('gives the same comparison for the compareRecord form as for whole records (targets, repeated keys, judges)', () => {
    const judged = (index: number, model: string, fail: boolean): SampleRecord =>
      reportRecord({
        id: `s${index}#e1`,
        scenarioId: `s${index % 3}`,
        scores: [
          leakScore(fail),
          { scorer: 'judge@1', target: { name: 'leak' }, verdict: fail ? 'fail' : 'pass', value: 1 },
          // A second score with the same key: only the first counts, in both forms.
          { scorer: 'judge@1', target: { name: 'leak' }, verdict: 'error', value: null },
          { scorer: 'other@1', verdict: index % 4 === 0 ? 'not-applicable' : 'pass', value: null },
        ],
        judgments: [
          { judge: 'leak@1', model, verdict: fail ? 'fail' : 'pass' },
          { judge: 'leak@1', model, verdict: 'pass' },
          { judge: 'help@1', model, verdict: index % 2 === 0 ? 'error' : 'pass' },
        ],
      });
    const whole = {
      a: { ...a, records: Array.from({ length: 12 }, (_, index) => judged(index, 'mock:a', index % 3 === 0)) },
      b: { ...b, records: Array.from({ length: 10 }, (_, index) => judged(index + 1, 'mock:b', index % 2 === 0)) },
    };
    const compact = {
      a: { ...whole.a, records: whole.a.records.map((record) => compareRecord(record)) },
      b: { ...whole.b, records: whole.b.records.map((record) => compareRecord(record)) },
    };
    const comparison = compareRuns(whole);
    expect(comparison.judges.length).toBeGreaterThan(0);
    expect(comparison.flipped.length).toBeGreaterThan(0);
    expect(compareRuns(compact)).toEqual(comparison);
    expect(JSON.stringify(compareRuns(compact))).toBe(JSON.stringify(comparison));
  });
});
