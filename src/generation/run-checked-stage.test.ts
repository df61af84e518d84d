import { describe, expect, it } from 'vitest';
import { type CheckedItem, runCheckedStage, type StageFeedback } from './run-checked-stage.js';

type Call = { key: string; attempt: number; feedback?: StageFeedback<number> };

/** Answers `key:attempt` from `answers` (a missing entry is a try without an answer). */
function scripted(answers: Record<string, number>) {
  const calls: Call[] = [];
  return {
    calls,
    generate: async (request: Call) => {
      calls.push(request);
      const value = answers[`${request.key}:${request.attempt}`];
      return value === undefined ? { ok: false as const, problems: ['no answer'] } : { ok: true as const, value };
    },
  };
}

/** Odd answers fail; and two answers may not be equal (a check that spans items, owned by the later key). */
function check(answers: ReadonlyMap<string, number>): Map<string, string[]> {
  const problems = new Map<string, string[]>();
  const seen = new Map<number, string>();
  for (const [key, value] of answers) {
    if (value % 2 === 1) problems.set(key, [...(problems.get(key) ?? []), `${value} is odd`]);
    if (seen.has(value)) problems.set(key, [...(problems.get(key) ?? []), `${value} repeats ${seen.get(value)}`]);
    seen.set(value, key);
  }
  return problems;
}

describe('runCheckedStage', () => {
  it('regenerates only the items with problems, with their problems and previous answer, then accepts all', async () => {
    const { calls, generate } = scripted({ 'a:1': 2, 'b:1': 3, 'c:1': 2, 'b:2': 4, 'c:2': 6 });
    const accepted: string[] = [];
    const outcomes = await runCheckedStage({
      items: [{ key: 'a' }, { key: 'b' }, { key: 'c' }],
      maxAttempts: 3,
      generate,
      check,
      onAccepted: ({ key, attempt }) => {
        accepted.push(`${key}@${attempt}`);
      },
    });
    expect(calls.map(({ key, attempt }) => `${key}:${attempt}`)).toEqual(['a:1', 'b:1', 'c:1', 'b:2', 'c:2']);
    expect(calls[3]?.feedback).toEqual({ problems: ['3 is odd'], previous: 3 });
    expect(calls[4]?.feedback).toEqual({ problems: ['2 repeats a'], previous: 2 });
    expect(accepted).toEqual(['a@1', 'b@2', 'c@2']);
    expect(outcomes.get('b')).toEqual({ ok: true, value: 4, attempt: 2 });
  });

  it('takes prior answers without a call, continues spent attempts, and gives up an item at maxAttempts', async () => {
    const { calls, generate } = scripted({ 'b:3': 8 });
    const exhausted: unknown[] = [];
    const items: CheckedItem<number>[] = [
      { key: 'a', prior: { attempt: 2, value: 4 } },
      { key: 'b', spent: { attempts: 2, problems: ['was odd'] } },
      { key: 'c', spent: { attempts: 1, problems: ['x'] } },
      { key: 'd', spent: { attempts: 3, problems: ['old'] } },
    ];
    const outcomes = await runCheckedStage({
      items,
      maxAttempts: 3,
      generate,
      check,
      onExhausted: (event) => exhausted.push(event),
    });
    expect(calls.map(({ key, attempt }) => `${key}:${attempt}`)).toEqual(['b:3', 'c:2', 'c:3']);
    expect(calls[0]?.feedback).toEqual({ problems: ['was odd'] });
    expect(calls[2]?.feedback).toEqual({ problems: ['no answer'] });
    expect(exhausted).toEqual([{ key: 'c', attempts: 3, problems: ['no answer'] }]);
    expect(Object.fromEntries(outcomes)).toEqual({
      a: { ok: true, value: 4, attempt: 2 },
      b: { ok: true, value: 8, attempt: 3 },
      c: { ok: false, problems: ['no answer'], attempts: 3 },
      d: { ok: false, problems: ['old'], attempts: 3 },
    });
  });

  it('ends the stage when a hook throws, starting nothing after it', async () => {
    const { calls, generate } = scripted({ 'a:1': 1, 'b:1': 3, 'a:2': 1 });
    const run = runCheckedStage({
      items: [{ key: 'a' }, { key: 'b' }],
      maxAttempts: 1,
      generate,
      check,
      limit: (task) => task(),
      onExhausted: ({ key }) => {
        throw new Error(`${key} kept failing`);
      },
    });
    await expect(run).rejects.toThrow('a kept failing');
    expect(calls).toHaveLength(2);
  });
});
