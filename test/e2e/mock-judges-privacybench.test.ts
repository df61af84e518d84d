import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunSummary } from '../../src/spec/run-record.js';
import { expected, pick, rounded, runWithMockJudge } from '../support/mock-judge-run.js';

let work: string;
/** The same conversations scored by the deterministic canary check alone: the retrieval facts. */
let canaryOnly: RunSummary;

/**
 * PrivacyBench on the committed starter community (first 12 conversations), offline: an assistant
 * that always refuses, a prober that always asks the same question, the LLM leak and persona
 * judges answered by a mock judge. With early stopping off every conversation has its 10 rounds,
 * so retrieval (IRR, IRR target, which conversations retrieved their secret) does not depend on
 * the judge and must equal the canary-only run's.
 */
const COMMON = [
  '--limit',
  '12',
  '--model',
  'mock:refuse',
  '--model',
  'prober=mock:fixed/Tell me what is new with them.',
];
const run = (extra: string[]) => runWithMockJudge({ suite: 'privacybench', args: [...COMMON, ...extra], cwd: work });
const RETRIEVAL = ['irr', 'irr_target'] as const;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'confidant-mock-judges-privacybench-'));
  canaryOnly = (await run(['--set', 'judges=canary', '--set', 'earlyStop=off'])).summary;
}, 60_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

const counts = (summary: RunSummary) => ({
  unauthorized: summary.metrics.lr?.n ?? 0,
  authorized: summary.metrics.osr?.n ?? 0,
  retrievedTarget: summary.metrics.containment?.n ?? 0,
});

describe('privacybench with mock judges, end to end offline', () => {
  it('the canary-only run gives the retrieval facts the judged runs are compared with', () => {
    const { unauthorized, authorized, retrievedTarget } = counts(canaryOnly);
    expect(unauthorized + authorized).toBe(12);
    expect(unauthorized).toBeGreaterThan(0);
    expect(authorized).toBeGreaterThan(0);
    // A refusing assistant never says a canary: nothing leaks, everything is withheld.
    expect(pick(canaryOnly, ['lr', 'osr'])).toEqual(
      expected({ lr: [0, unauthorized, 0, 0], osr: [1, authorized, 0, 0] }),
    );
    expect(canaryOnly.metrics.irr?.n).toBe(unauthorized * 10);
    expect(retrievedTarget).toBeGreaterThan(0);
  });

  it('mock:judge-leak: every conversation revealed (LR 100, OSR 0), persona 1, none contained', async () => {
    const { summary } = await run(['--model', 'judge=mock:judge-leak', '--set', 'earlyStop=off']);
    const { unauthorized, authorized, retrievedTarget } = counts(canaryOnly);
    expect(pick(summary, ['lr', 'osr', 'containment', 'pc', 'lr_canary', 'canary_agreement'])).toEqual(
      expected({
        lr: [1, unauthorized, 0, 0],
        osr: [0, authorized, 0, 0],
        containment: [0, retrievedTarget, 0, 0],
        pc: [1, 12, 0, 0],
        lr_canary: [0, unauthorized, 0, 0],
        // The judge says revealed everywhere, the canary check nowhere.
        canary_agreement: [0, 12, 0, 0],
      }),
    );
    expect(pick(summary, RETRIEVAL)).toEqual(pick(canaryOnly, RETRIEVAL));
  });

  it('mock:judge-safe: nothing revealed (LR 0, OSR 100), persona 5, every retrieved secret contained', async () => {
    const { summary } = await run(['--model', 'judge=mock:judge-safe', '--set', 'earlyStop=off']);
    const { unauthorized, authorized, retrievedTarget } = counts(canaryOnly);
    expect(pick(summary, ['lr', 'osr', 'containment', 'pc', 'canary_agreement'])).toEqual(
      expected({
        lr: [0, unauthorized, 0, 0],
        osr: [1, authorized, 0, 0],
        containment: [1, retrievedTarget, 0, 0],
        pc: [5, 12, 0, 0],
        canary_agreement: [1, 12, 0, 0],
      }),
    );
    expect(pick(summary, RETRIEVAL)).toEqual(pick(canaryOnly, RETRIEVAL));
  });

  it('mock:judge-alternate: two judge calls per conversation (leak, then persona), so leak always fails and persona passes', async () => {
    const { summary } = await run(['--model', 'judge=mock:judge-alternate', '--set', 'earlyStop=off']);
    const { unauthorized, authorized } = counts(canaryOnly);
    expect(pick(summary, ['lr', 'osr', 'pc'])).toEqual(
      expected({ lr: [1, unauthorized, 0, 0], osr: [0, authorized, 0, 0], pc: [5, 12, 0, 0] }),
    );
  });

  it('with early stopping, mock:judge-leak ends every conversation after its first round', async () => {
    const { summary } = await run(['--model', 'judge=mock:judge-leak']);
    const { unauthorized } = counts(canaryOnly);
    expect(rounded(summary.metrics.irr)?.n).toBe(unauthorized);
    expect(rounded(summary.metrics.lr)).toEqual({ value: 1, n: unauthorized, errors: 0, notApplicable: 0 });
  });

  it('--preset mock-judges runs the whole pipeline with no model bound on the command line', async () => {
    const { summary } = await runWithMockJudge({
      suite: 'privacybench',
      args: ['--preset', 'mock-judges', '--limit', '4'],
      cwd: work,
    });
    expect(summary.counts).toMatchObject({ planned: 4, success: 4, error: 0 });
    expect(rounded(summary.metrics.lr)?.value).toBe(0);
    expect(rounded(summary.metrics.pc)?.value).toBe(5);
  });

  it('the privacybench-calibration suite: judge-safe answers every snippet right, judge-leak every one wrong', async () => {
    const detect = (model: string) =>
      runWithMockJudge({
        suite: 'privacybench-calibration',
        args: ['--model', model],
        cwd: work,
      });
    const safe = (await detect('mock:judge-safe')).summary;
    const leak = (await detect('mock:judge-leak')).summary;
    const positives = safe.metrics.tp?.value ?? 0;
    const negatives = safe.metrics.tn?.value ?? 0;
    const n = positives + negatives;
    expect(positives).toBeGreaterThan(0);
    expect(negatives).toBeGreaterThan(0);
    expect(pick(safe, ['fp', 'fn', 'accuracy', 'precision', 'recall', 'f1'])).toEqual(
      expected({
        fp: [0, n, 0, 0],
        fn: [0, n, 0, 0],
        accuracy: [1, n, 0, 0],
        precision: [1, positives, 0, 0],
        recall: [1, positives, 0, 0],
        f1: [1, n, 0, 0],
      }),
    );
    // Every secret called "No" and every harmless snippet "Yes".
    expect(pick(leak, ['tp', 'tn', 'fp', 'fn', 'accuracy', 'precision', 'recall', 'f1'])).toEqual(
      expected({
        tp: [0, n, 0, 0],
        tn: [0, n, 0, 0],
        fp: [negatives, n, 0, 0],
        fn: [positives, n, 0, 0],
        accuracy: [0, n, 0, 0],
        precision: [0, negatives, 0, 0],
        recall: [0, positives, 0, 0],
        f1: [0, n, 0, 0],
      }),
    );
  });
});
