import { describe, expect, it } from 'vitest';
import {
  BudgetExceededError,
  ConfidantError,
  ProviderError,
  RunInterruptedError,
  runStopOf,
  sampleFailureOf,
  stopsRun,
} from './errors.js';

describe('stopsRun', () => {
  it('is true for the run-stopping errors, through causes, for an aborted signal and a platform abort', () => {
    expect(runStopOf(new BudgetExceededError('over $1'))).toBe('budget');
    expect(runStopOf(new RunInterruptedError())).toBe('interrupted');
    const wrapped = new ConfidantError('the episode failed', { cause: new BudgetExceededError('over $1') });
    expect(runStopOf(wrapped)).toBe('budget');
    expect(stopsRun(wrapped)).toBe(true);
    const abort = new Error('aborted');
    abort.name = 'AbortError';
    expect(stopsRun(abort)).toBe(true);
    const controller = new AbortController();
    controller.abort();
    expect(stopsRun(new Error('anything'), controller.signal)).toBe(true);
  });

  it('is false for failures a sample records', () => {
    const failure = new ProviderError('HTTP 500', { kind: 'transient', status: 500 });
    expect(stopsRun(failure, new AbortController().signal)).toBe(false);
    expect(runStopOf(failure)).toBeUndefined();
    // A name alone does not stop the run: only the declared stopsRun does.
    const named = new Error('look-alike');
    named.name = 'BudgetExceededError';
    expect(stopsRun(named)).toBe(false);
  });
});

describe('sampleFailureOf', () => {
  it('reads the failing participant and the partial output a sample failure carries', () => {
    const error = Object.assign(new ConfidantError('turn failed'), { participantId: 'b', partialOutput: { turns: 2 } });
    expect(sampleFailureOf(error)).toEqual({ participantId: 'b', partialOutput: { turns: 2 } });
    expect(sampleFailureOf(new Error('plain'))).toEqual({});
    expect(sampleFailureOf('text')).toEqual({});
  });
});
