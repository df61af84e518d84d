import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expected, pick, runWithMockJudge } from '../support/mock-judge-run.js';

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'confidant-mock-judges-pac-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const HEADLINE = ['ts', 'ps', 'acc_task', 'acc_privacy', 'acc_joint', 'grounded_rate'] as const;

/**
 * PAC-Bench's LLM judges (per-message task judge, keyword-awareness privacy judge, grounding) on
 * the three starter scenarios (3 requirements each; 2, 2 and 3 agents; one message per agent),
 * offline: reference agents in the seats, a mock judge answering every judge call.
 */
const run = (agent: string, judge: string) =>
  runWithMockJudge({
    suite: 'pac',
    args: ['--split', 'starter', '--model', agent, '--model', `judge=${judge}`],
    cwd: work,
  });

describe('pac with mock judges, end to end offline', () => {
  it('mock:judge-leak: nothing is achieved, so nothing is grounded; the oracle leaks no keyword and stays compliant', async () => {
    const { summary } = await run('reference:oracle', 'mock:judge-leak');
    // The oracle masks every violation keyword: no item triggers the awareness judge (p = 2).
    // Grounding judges only achieved requirements: none here, so there is nothing to rate.
    expect(pick(summary, HEADLINE)).toEqual(
      expected({
        ts: [0, 3, 0, 0],
        ps: [1, 3, 0, 0],
        acc_task: [0, 3, 0, 0],
        acc_privacy: [1, 3, 0, 0],
        acc_joint: [0, 3, 0, 0],
        grounded_rate: [null, 0, 0, 0],
      }),
    );
  });

  it('mock:judge-safe: every requirement achieved and grounded (3 runs × 3 requirements)', async () => {
    const { summary } = await run('reference:oracle', 'mock:judge-safe');
    expect(pick(summary, HEADLINE)).toEqual(
      expected({
        ts: [1, 3, 0, 0],
        ps: [1, 3, 0, 0],
        acc_task: [1, 3, 0, 0],
        acc_privacy: [1, 3, 0, 0],
        acc_joint: [1, 3, 0, 0],
        grounded_rate: [1, 9, 0, 0],
      }),
    );
  });

  it('mock:judge-alternate: verdicts alternate per call, in run order', async () => {
    const { summary } = await run('reference:oracle', 'mock:judge-alternate');
    // Calls per run: one task call per message, then one grounding call per requirement, then one
    // keyword-expansion call per policy (a judge with one outcome, but it takes its turn).
    // Run 1 (2 messages, 2 policies): task fail, pass → all achieved; grounding fail, pass, fail.
    // Run 2 starts at call 8: task pass, fail; grounding pass, fail, pass.
    // Run 3 starts at call 15 (3 messages): task fail, pass, fail; grounding pass, fail, pass.
    // Grounded: 1 + 2 + 2 of 9.
    expect(pick(summary, HEADLINE)).toEqual(
      expected({
        ts: [1, 3, 0, 0],
        ps: [1, 3, 0, 0],
        acc_task: [1, 3, 0, 0],
        acc_privacy: [1, 3, 0, 0],
        acc_joint: [1, 3, 0, 0],
        grounded_rate: [0.5556, 9, 0, 0],
      }),
    );
  });

  it('the naive agent copies its memories: judge-leak calls every keyword hit a violation, judge-safe calls it aware', async () => {
    const leak = await run('reference:naive', 'mock:judge-leak');
    const safe = await run('reference:naive', 'mock:judge-safe');
    // keyword-awareness: a hit asks the awareness judge; failure → 0 (violated), success → 1 (aware).
    expect(pick(leak.summary, ['ps', 'acc_privacy'])).toEqual(
      expected({ ps: [0, 3, 0, 0], acc_privacy: [0, 3, 0, 0] }),
    );
    expect(pick(safe.summary, ['ts', 'ps', 'acc_privacy', 'acc_joint'])).toEqual(
      expected({ ts: [1, 3, 0, 0], ps: [0.5, 3, 0, 0], acc_privacy: [0, 3, 0, 0], acc_joint: [0, 3, 0, 0] }),
    );
  });

  it('--preset mock-judges binds the oracle and mock:judge-safe; an explicit judge replaces only the judge', async () => {
    const preset = await runWithMockJudge({ suite: 'pac', args: ['--preset', 'mock-judges'], cwd: work });
    expect(pick(preset.summary, ['acc_joint', 'grounded_rate'])).toEqual(
      expected({ acc_joint: [1, 3, 0, 0], grounded_rate: [1, 9, 0, 0] }),
    );
    const flipped = await runWithMockJudge({
      suite: 'pac',
      args: ['--preset', 'mock-judges', '--model', 'judge=mock:judge-leak'],
      cwd: work,
    });
    expect(pick(flipped.summary, ['ts', 'ps'])).toEqual(expected({ ts: [0, 3, 0, 0], ps: [1, 3, 0, 0] }));
  });
});
