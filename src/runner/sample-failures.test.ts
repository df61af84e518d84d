import { describe, expect, it } from 'vitest';
import type { TranscriptEvent } from '../spec/event.js';
import { testSampleRecord } from '../store/run-store.contract.js';
import { FailureTally } from './failure-tally.js';
import { failedScores, judgmentsFromEvents, needsRetry, recordFailureOf } from './sample-failures.js';

const time = '2025-01-01T00:00:00.000Z';
const modelCall: TranscriptEvent = {
  id: 'e1',
  time,
  type: 'model-call',
  role: 'judge',
  provider: 'vllm',
  modelId: 'judge-7b',
  request: { messages: [], settings: {} },
  response: { text: 'x', toolCalls: [], finishReason: 'stop' },
  usage: { inputTokens: 1, outputTokens: 1 },
  costUsd: 0,
  cached: false,
  attempts: 1,
  durationMs: 0,
};
const judgeCall = (overrides: Record<string, unknown>): TranscriptEvent =>
  ({
    id: 'e2',
    time,
    type: 'judge-call',
    judge: 'leak@1',
    prompt: 'p',
    raw: 'x',
    verdict: 'pass',
    modelCallIds: [],
    ...overrides,
  }) as TranscriptEvent;

describe('judgmentsFromEvents', () => {
  it('takes the model from the event, else from its linked model call, else unknown', () => {
    expect(
      judgmentsFromEvents([
        modelCall,
        judgeCall({ model: 'openai:gpt-x' }),
        judgeCall({ modelCallIds: ['e1'], verdict: 'fail' }),
        judgeCall({ verdict: 'error', error: 'JudgeParseError: no JSON object found in the reply' }),
        judgeCall({ verdict: 'error', errorCause: { name: 'ProviderError', message: 'connection refused' } }),
      ]),
    ).toEqual([
      { judge: 'leak@1', model: 'openai:gpt-x', verdict: 'pass' },
      { judge: 'leak@1', model: 'vllm:judge-7b', verdict: 'fail' },
      {
        judge: 'leak@1',
        model: 'unknown',
        verdict: 'error',
        error: { name: 'JudgeError', message: 'JudgeParseError: no JSON object found in the reply' },
      },
      {
        judge: 'leak@1',
        model: 'unknown',
        verdict: 'error',
        error: { name: 'ProviderError', message: 'connection refused' },
      },
    ]);
  });
});

describe('sample failures', () => {
  const judgeErrored = testSampleRecord({
    id: 'a#e1',
    judgments: [
      { judge: 'leak@1', model: 'm', verdict: 'pass' },
      { judge: 'leak@1', model: 'm', verdict: 'error', error: { name: 'JudgeParseError', message: 'no JSON' } },
    ],
  });

  it('a sample that ran but had a judge call fail is a failure, and is redone by --retry-errors', () => {
    expect(recordFailureOf(judgeErrored)).toEqual({
      kind: 'judge-errored',
      judge: 'leak@1',
      cause: { name: 'JudgeParseError', message: 'no JSON' },
    });
    expect(needsRetry(judgeErrored)).toBe(true);
    expect(needsRetry(testSampleRecord({ id: 'b#e1' }))).toBe(false);
    expect(
      recordFailureOf(testSampleRecord({ id: 'c#e1', status: 'error', error: { name: 'X', message: 'boom 12345' } })),
    ).toEqual({
      kind: 'errored',
      cause: { name: 'X', message: 'boom N' },
    });
  });

  it('the tally says when a record may have moved the failure counts: only when it or the record it replaces failed', () => {
    const tally = new FailureTally();
    expect(tally.set(testSampleRecord({ id: 'ok#e1' }))).toBe(false);
    expect(tally.set(testSampleRecord({ id: 'ok#e1', attempt: 2 }))).toBe(false);
    expect(tally.set(judgeErrored)).toBe(true);
    expect(tally.set(testSampleRecord({ id: 'a#e1', attempt: 2 }))).toBe(true);
    expect(tally.set(testSampleRecord({ id: 'a#e1', attempt: 3 }))).toBe(false);
    expect(tally.snapshot()).toMatchObject({ errored: 0, judgeErrored: 0, judgeErrors: 0, rate: 0 });
  });

  it('the tally replaces a retried sample, so its old causes disappear', () => {
    const tally = new FailureTally();
    tally.set(judgeErrored);
    tally.set(testSampleRecord({ id: 'b#e1', status: 'error', error: { name: 'X', message: 'boom' } }));
    expect(tally.snapshot()).toMatchObject({ errored: 1, judgeErrored: 1, judgeErrors: 1, rate: 1 });
    expect(tally.lines()).toEqual([
      { label: 'judge leak@1: JudgeParseError: no JSON ×1', count: 1 },
      { label: 'X: boom ×1', count: 1 },
    ]);
    tally.set(testSampleRecord({ id: 'a#e1', attempt: 2 }));
    expect(tally.snapshot()).toMatchObject({ errored: 1, judgeErrored: 0, judgeErrors: 0, rate: 0.5 });
    expect(tally.snapshot().causes).toEqual([
      { kind: 'sample', name: 'X', message: 'boom', count: 1, exampleSampleId: 'b#e1' },
    ]);
  });

  const unrated = testSampleRecord({
    id: 'r#e1',
    scores: [
      { scorer: 'confaide-text@1', verdict: 'pass', value: 0 },
      { scorer: 'confaide-rating@1', verdict: 'error', value: null, explanation: 'no valid rating after 6 attempt(s)' },
    ],
  });

  it('a sample whose scorer could not score it, with no judge behind the error, is a score failure and is redone', () => {
    expect(failedScores(unrated)).toEqual([
      { scorer: 'confaide-rating@1', error: { name: 'ScoreError', message: 'no valid rating after 6 attempt(s)' } },
    ]);
    expect(recordFailureOf(unrated)).toEqual({
      kind: 'score-errored',
      scorer: 'confaide-rating@1',
      cause: { name: 'ScoreError', message: 'no valid rating after 6 attempt(s)' },
    });
    expect(needsRetry(unrated)).toBe(true);
    // An error score behind a failed judge call is that judge's failure, counted once.
    expect(failedScores({ ...judgeErrored, scores: unrated.scores })).toEqual([]);
  });

  it('the tally counts score-errored samples in the rate and names the scorer; none gives no field', () => {
    const tally = new FailureTally();
    tally.set(testSampleRecord({ id: 'ok#e1' }));
    expect(tally.snapshot()).not.toHaveProperty('scoreErrored');
    tally.set(unrated);
    expect(tally.snapshot()).toMatchObject({ errored: 0, judgeErrored: 0, judgeErrors: 0, scoreErrored: 1, rate: 0.5 });
    expect(tally.lines()).toEqual([
      { label: 'scorer confaide-rating@1: no valid rating after 6 attempt(s) ×1', count: 1 },
    ]);
    tally.set(testSampleRecord({ id: 'r#e1', attempt: 2 }));
    expect(tally.snapshot()).toMatchObject({ rate: 0 });
    expect(tally.snapshot()).not.toHaveProperty('scoreErrored');
  });
});
