import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StructuredReply } from '../../../generation/index.js';
import { testGenerationContext } from './__fixtures__/test-generation-context.js';
import type { PacGenerationContext } from './generation-context.js';
import type { PacRuleIssue } from './pac-rule-issue.js';
import { runStage } from './run-stage.js';

let outDir: string;
beforeEach(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'pac-stage-'));
});
afterEach(async () => {
  await rm(outDir, { recursive: true, force: true });
});

const tooShort: PacRuleIssue = {
  path: 'scenario.goal.requirements',
  rule: 'requirement-count',
  message: 'too short',
  stage: 'requirements',
};

/** Replies a list of values (or parse failures) in order and records the feedback of each attempt. */
function scripted(values: Array<string[] | null>) {
  const seen: Array<{ attempt: number; feedback: string[] | undefined }> = [];
  const ask = async ({ attempt, feedback }: { attempt: number; feedback: string[] | undefined }) => {
    seen.push({ attempt, feedback });
    const value = values[seen.length - 1];
    const reply: StructuredReply<string[]> =
      value === null || value === undefined
        ? { ok: false, problem: 'unparseable', raw: '', calls: 1 }
        : { ok: true, value, raw: '', calls: 1 };
    return reply;
  };
  return { ask, seen };
}

describe('runStage', () => {
  it('journals the first output that passes the rules, after feeding back the broken ones', async () => {
    const { context, events } = await testGenerationContext({ outDir, reply: () => '{}' });
    const { ask, seen } = scripted([null, ['one'], ['one', 'two']]);
    const outcome = await runStageWith(context, ask);
    expect(outcome).toEqual({ ok: true, value: ['one', 'two'] });
    expect(seen).toEqual([
      { attempt: 1, feedback: undefined },
      { attempt: 2, feedback: ['unparseable'] },
      { attempt: 3, feedback: ['scenario.goal.requirements: too short [requirement-count]'] },
    ]);
    expect(context.journal.unit('u').requirements).toEqual(['one', 'two']);
    expect(events.map((event) => `${event.type}${'attempt' in event ? ` ${event.attempt}` : ''}`)).toEqual([
      'stage-failed 1',
      'stage-failed 2',
      'stage-accepted 3',
    ]);
  });

  it('gives up after maxAttempts with the last reasons and journals nothing', async () => {
    const { context } = await testGenerationContext({ outDir, reply: () => '{}', options: { maxAttempts: 2 } });
    const { ask, seen } = scripted([['a'], ['b'], ['c', 'd']]);
    expect(await runStageWith(context, ask)).toEqual({
      ok: false,
      reasons: ['scenario.goal.requirements: too short [requirement-count]'],
      attempts: 2,
    });
    expect(seen).toHaveLength(2);
    expect(context.journal.unit('u').requirements).toBeUndefined();
  });

  it('continues the attempt count of an earlier session with its reasons as feedback', async () => {
    const { context } = await testGenerationContext({ outDir, reply: () => '{}', options: { maxAttempts: 4 } });
    const { ask, seen } = scripted([['a', 'b']]);
    const outcome = await runStageWith(context, ask, { firstAttempt: 4, feedback: ['old [rule]'] });
    expect(outcome.ok).toBe(true);
    expect(seen).toEqual([{ attempt: 4, feedback: ['old [rule]'] }]);
  });

  it('keeps the earlier reasons when no attempt is left', async () => {
    const { context } = await testGenerationContext({ outDir, reply: () => '{}', options: { maxAttempts: 1 } });
    const { ask, seen } = scripted([]);
    expect(await runStageWith(context, ask, { firstAttempt: 2, feedback: ['old [rule]'] })).toEqual({
      ok: false,
      reasons: ['old [rule]'],
      attempts: 1,
    });
    expect(seen).toEqual([]);
  });
});

function runStageWith(
  context: PacGenerationContext,
  ask: (options: { attempt: number; feedback: string[] | undefined }) => Promise<StructuredReply<string[]>>,
  resume: { firstAttempt?: number; feedback?: string[] } = {},
) {
  return runStage({
    context,
    unit: 'u',
    stage: 'requirements',
    ...resume,
    ask,
    check: (value) => (value.length < 2 ? [tooShort] : []),
  });
}
