import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BudgetExceededError, PlanValidationError, ProviderError } from '../spec/errors.js';
import { InMemoryRunStore } from '../store/in-memory-run-store.js';
import { defineSuite } from '../suites/suite.js';
import { toyLeakScenarios } from '../suites/toy-leak/scenarios.js';
import { toyLeakSuite } from '../suites/toy-leak/suite.js';
import { summarizeStore } from './build-summary.js';
import { expandSamples } from './expand-samples.js';
import { type RunProgress, runEvaluation } from './run-evaluation.js';
import { type ScriptedCall, scriptedModelRoles } from './testing/scripted-model-roles.js';
import { testRunHeader } from './testing/test-run-header.js';

const samples = expandSamples({ suite: toyLeakSuite, scenarios: toyLeakScenarios, options: {}, epochs: 1, seed: 0 });
const ids = samples.map((sample) => sample.id);
const refuse = () => 'I cannot share that.';

async function freshStore(): Promise<InMemoryRunStore> {
  const store = new InMemoryRunStore();
  await store.writeHeader(testRunHeader({ runId: 'run-1', sampleIds: ids }));
  return store;
}

function fixedClock(): () => Date {
  let tick = 0;
  return () => new Date(Date.UTC(2025, 0, 1, 0, 0, 0, tick++));
}

const run = (
  options: Partial<Parameters<typeof runEvaluation>[0]> & Pick<Parameters<typeof runEvaluation>[0], 'store' | 'models'>,
) =>
  runEvaluation({
    suite: toyLeakSuite,
    options: {},
    scenarios: toyLeakScenarios,
    samples,
    concurrency: 1,
    now: fixedClock(),
    ...options,
  });

describe('runEvaluation records', () => {
  it('writes one record per sample with events, usage and scores, and the summary', async () => {
    const store = await freshStore();
    const { factory } = scriptedModelRoles({ respond: refuse });
    const result = await run({ store, models: factory });
    const records = await store.readSamples();
    expect(records.map((record) => record.id)).toEqual(ids);
    const [first] = records;
    expect(first).toMatchObject({
      id: 'clinic-diagnosis#e1',
      scenarioId: 'clinic-diagnosis',
      epoch: 1,
      seed: samples[0]?.seed,
      status: 'ok',
      attempt: 1,
      output: { answer: 'I cannot share that.' },
      scores: [{ scorer: 'toy-leak-canary@1', verdict: 'pass', value: 0 }],
      usage: { agent: { calls: 1, inputTokens: 10, outputTokens: 5, costUsd: 0.001, cachedCalls: 0 } },
    });
    expect(first?.events.map((event) => [event.id, event.type])).toEqual([
      ['e1', 'sample-start'],
      ['e2', 'model-call'],
    ]);
    expect(first?.events[0]).toMatchObject({
      sampleId: 'clinic-diagnosis#e1',
      attempt: 1,
      time: '2025-01-01T00:00:00.002Z',
    });
    expect(first?.startedAt).toBe('2025-01-01T00:00:00.001Z');
    expect(result.executed).toBe(4);
    expect(result.stopped).toBeUndefined();
    expect(result.summary.counts).toEqual({ planned: 4, success: 4, error: 0, missing: 0 });
    expect(result.summary.runId).toBe('run-1');
    expect(await store.readSummary()).toEqual(result.summary);
  });

  it('records a thrown error as status error with partial events and a sample-error event', async () => {
    const store = await freshStore();
    const { factory } = scriptedModelRoles({
      respond: ({ sampleId }) => {
        if (sampleId.startsWith('payroll')) throw new TypeError('socket hang up');
        return refuse();
      },
    });
    const { summary } = await run({ store, models: factory });
    const failed = (await store.readSamples()).find((record) => record.id === 'payroll-salary#e1');
    expect(failed).toMatchObject({
      status: 'error',
      output: null,
      scores: [],
      error: { name: 'TypeError', message: 'socket hang up' },
      usage: { agent: { calls: 1, inputTokens: 0, outputTokens: 0, costUsd: 0, cachedCalls: 0 } },
    });
    expect(failed?.events.map((event) => event.type)).toEqual(['sample-start', 'model-call', 'sample-error']);
    expect(failed?.events[2]).toMatchObject({ name: 'TypeError', message: 'socket hang up' });
    expect(summary.counts).toEqual({ planned: 4, success: 3, error: 1, missing: 0 });
    expect(summary.errorsByName).toEqual({ TypeError: 1 });
    expect(summary.complete).toBe(true);
  });

  it('reports progress at the start, after every model call and after every sample', async () => {
    const store = await freshStore();
    const progress: RunProgress[] = [];
    const { factory } = scriptedModelRoles({
      respond: ({ callIndex }) => (callIndex === 1 ? { text: 'no', costUsd: null, inputTokens: null } : refuse()),
    });
    await run({ store, models: factory, onProgress: (value) => progress.push(value) });
    expect(
      progress.map(({ update, done, errors, inputTokens, outputTokens }) => [
        update,
        done,
        errors,
        inputTokens,
        outputTokens,
      ]),
    ).toEqual([
      ['start', 0, 0, 0, 0],
      // Tokens move with the call, before its sample is recorded.
      ['model-call', 0, 0, 10, 5],
      ['sample', 1, 0, 10, 5],
      ['model-call', 1, 0, 10, 10],
      ['sample', 2, 0, 10, 10],
      ['model-call', 2, 0, 20, 15],
      ['sample', 3, 0, 20, 15],
      ['model-call', 3, 0, 30, 20],
      ['sample', 4, 0, 30, 20],
    ]);
    expect(progress[1]?.costUsd).toBe(0.001);
    expect(progress[3]?.costUsd).toBeNull();
    expect(progress.map((value) => value.sessionDone)).toEqual([0, 0, 1, 1, 2, 2, 3, 3, 4]);
    expect(progress.every((value) => value.planned === 4 && value.startedAt === '2025-01-01T00:00:00.000Z')).toBe(true);
  });

  it('counts errors by cause on the progress line, and samples done before a resume', async () => {
    const store = await freshStore();
    const failing = scriptedModelRoles({
      respond: ({ sampleId }) => {
        if (sampleId.startsWith('payroll') || sampleId.startsWith('clinic')) throw new TypeError('socket hang up');
        return refuse();
      },
    });
    await run({ store, models: failing.factory, samples: samples.slice(0, 2) });
    const progress: RunProgress[] = [];
    await run({
      store,
      models: scriptedModelRoles({ respond: refuse }).factory,
      onProgress: (value) => progress.push(value),
    });
    expect(progress[0]).toMatchObject({
      update: 'start',
      done: 2,
      sessionDone: 0,
      errors: 2,
      causes: [{ label: 'TypeError: socket hang up ×2', count: 2 }],
    });
    expect(progress.at(-1)).toMatchObject({ done: 4, sessionDone: 2, errors: 2 });

    const retried: RunProgress[] = [];
    await run({
      store,
      models: scriptedModelRoles({ respond: refuse }).factory,
      retryErrors: true,
      onProgress: (value) => retried.push(value),
    });
    // The samples being redone no longer count as errors; once redone, nothing failed.
    expect(retried[0]).toMatchObject({ done: 2, errors: 0, causes: [] });
    expect(retried.at(-1)).toMatchObject({ done: 4, sessionDone: 2, errors: 0 });
  });

  it('never runs more samples at once than the concurrency allows', async () => {
    const store = await freshStore();
    let active = 0;
    let peak = 0;
    const { factory } = scriptedModelRoles({
      respond: async () => {
        active += 1;
        peak = Math.max(peak, active);
        await new Promise((resolve) => setImmediate(resolve));
        active -= 1;
        return refuse();
      },
    });
    await run({ store, models: factory, concurrency: 2 });
    expect(peak).toBe(2);
    expect((await store.readSamples()).length).toBe(4);
  });

  it('rejects samples of scenarios that were not loaded, and a bad concurrency', async () => {
    const store = await freshStore();
    const { factory } = scriptedModelRoles({ respond: refuse });
    await expect(run({ store, models: factory, scenarios: toyLeakScenarios.slice(1) })).rejects.toThrow(
      "sample 'clinic-diagnosis#e1' refers to scenario 'clinic-diagnosis', which was not loaded",
    );
    await expect(run({ store, models: factory, concurrency: 0 })).rejects.toBeInstanceOf(PlanValidationError);
  });
});

describe('runEvaluation summary', () => {
  it('summarises the records as a re-read of the store would, even outputs that JSON does not give back as they are', async () => {
    // The metric counts outputs whose `note` is present and whose `score` is a number: JSON drops
    // the undefined member and turns NaN into null, so a summary of the in-memory outputs would say 2.
    const quirky = defineSuite<{ id: string }, unknown, Record<string, never>>({
      ...toyLeakSuite,
      options: z.object({}),
      dataset: { name: 'quirky', files: () => [], load: async () => [], id: (scenario) => scenario.id },
      async solve({ sample }) {
        return sample.scenarioId === 'a'
          ? { output: { note: undefined, score: Number.NaN } }
          : { output: { note: 'kept', score: 1, when: new Date(Date.UTC(2025, 0, 1)) } };
      },
      scorers: [],
      metrics: {
        compute: ({ records }) => {
          const counted = records.filter((record) => {
            const output = record.output as Record<string, unknown> | null;
            return output !== null && 'note' in output && typeof output.score === 'number';
          });
          const dated = records.filter((record) => typeof (record.output as { when?: unknown })?.when === 'string');
          return {
            metrics: {
              counted: { value: counted.length, n: records.length, errors: 0, notApplicable: 0 },
              dated: { value: dated.length, n: records.length, errors: 0, notApplicable: 0 },
            },
          };
        },
        definitions: [],
      },
    });
    const quirkySamples = ['a', 'b'].map((id) => ({ id: `${id}#e1`, scenarioId: id, variant: {}, epoch: 1, seed: 0 }));
    const store = new InMemoryRunStore();
    await store.writeHeader(testRunHeader({ runId: 'run-q', sampleIds: quirkySamples.map((sample) => sample.id) }));
    const { factory } = scriptedModelRoles({ respond: refuse });
    const result = await runEvaluation({
      suite: quirky,
      options: {},
      scenarios: [{ id: 'a' }, { id: 'b' }],
      samples: quirkySamples,
      store,
      models: factory,
      validate: false,
    });
    expect(result.summary.metrics.counted?.value).toBe(1);
    expect(result.summary.metrics.dated?.value).toBe(1);
    const reread = await summarizeStore({
      store,
      runId: 'run-q',
      suite: quirky,
      options: {},
      planned: quirkySamples.map((sample) => sample.id),
      now: new Date(result.summary.finishedAt),
    });
    expect(result.summary).toEqual(reread);
  });
});

describe('runEvaluation resume', () => {
  it('runs only the missing samples; every id appears once in the latest records', async () => {
    const store = await freshStore();
    const first = scriptedModelRoles({ respond: refuse });
    await run({ store, models: first.factory, samples: [samples[0]!, samples[2]!] });
    const second = scriptedModelRoles({ respond: refuse });
    const result = await run({ store, models: second.factory });
    expect(second.calls.map((call) => call.sampleId)).toEqual(['payroll-salary#e1', 'vault-code#e1']);
    expect(result.executed).toBe(2);
    expect(store.appendedCount).toBe(4);
    expect((await store.readSamples()).map((record) => record.id).sort()).toEqual([...ids].sort());
    expect(result.summary.counts).toEqual({ planned: 4, success: 4, error: 0, missing: 0 });
  });

  it('leaves errored samples alone unless retryErrors, which re-runs them as the next attempt', async () => {
    const store = await freshStore();
    const failing = scriptedModelRoles({
      respond: ({ sampleId }) => {
        if (sampleId.startsWith('vault')) throw new Error('flaky');
        return refuse();
      },
    });
    await run({ store, models: failing.factory });
    const plain = scriptedModelRoles({ respond: refuse });
    const again = await run({ store, models: plain.factory });
    expect(plain.calls).toHaveLength(0);
    expect(again.summary.counts.error).toBe(1);

    const retried = await run({ store, models: plain.factory, retryErrors: true });
    expect(plain.calls.map((call: ScriptedCall) => call.sampleId)).toEqual(['vault-code#e1']);
    const vault = (await store.readSamples()).find((record) => record.id === 'vault-code#e1');
    expect(vault).toMatchObject({ status: 'ok', attempt: 2 });
    expect(retried.summary.counts).toEqual({ planned: 4, success: 4, error: 0, missing: 0 });
    expect(retried.summary.errorsByName).toEqual({});
  });
});

describe('runEvaluation stops', () => {
  it('stops on a budget error without recording that sample, and resumes later', async () => {
    const store = await freshStore();
    const { factory, calls } = scriptedModelRoles({
      respond: ({ callIndex }) => {
        if (callIndex >= 2) throw new BudgetExceededError('max cost of $0.002 reached');
        return refuse();
      },
    });
    const result = await run({ store, models: factory });
    expect(result.stopped).toBe('budget');
    expect(calls).toHaveLength(3);
    expect((await store.readSamples()).map((record) => record.id)).toEqual(ids.slice(0, 2));
    expect(result.summary).toMatchObject({
      complete: false,
      stopReason: 'budget',
      counts: { planned: 4, success: 2, error: 0, missing: 2 },
    });

    const resumed = await run({ store, models: scriptedModelRoles({ respond: refuse }).factory });
    expect(resumed.stopped).toBeUndefined();
    expect(resumed.executed).toBe(2);
    expect(resumed.summary.complete).toBe(true);
  });

  it('treats a budget error swallowed by the suite as a stop, not as a result', async () => {
    const forgiving = defineSuite<{ id: string }, string, Record<string, never>>({
      ...toyLeakSuite,
      options: z.object({}),
      dataset: { name: 'forgiving', files: () => [], load: async () => [{ id: 'one' }], id: (scenario) => scenario.id },
      async solve({ models, signal }) {
        const answer = await models
          .model('agent')
          .generate({ messages: [{ role: 'user', content: 'hi' }], settings: {}, abortSignal: signal })
          .catch(() => 'the call failed');
        return { output: typeof answer === 'string' ? answer : answer.text };
      },
      scorers: [{ id: 'x', version: 1, score: async () => [{ scorer: 'x@1', verdict: 'error', value: null }] }],
      metrics: { compute: () => ({ metrics: {} }), definitions: [] },
    });
    const store = await freshStore();
    const { factory } = scriptedModelRoles({
      respond: () => {
        throw new BudgetExceededError('max tokens reached');
      },
    });
    const one = [{ id: 'one#e1', scenarioId: 'one', variant: {}, epoch: 1, seed: 0 }];
    const result = await runEvaluation({
      suite: forgiving,
      options: {},
      scenarios: [{ id: 'one' }],
      samples: one,
      store,
      models: factory,
    });
    expect(result.stopped).toBe('budget');
    expect(await store.readSamples()).toEqual([]);
  });

  it('stops on abort: the aborted sample is not recorded and no new sample starts', async () => {
    const store = await freshStore();
    const controller = new AbortController();
    const { factory, calls } = scriptedModelRoles({
      respond: ({ callIndex }) => {
        if (callIndex === 1) {
          controller.abort();
          throw new DOMException('This operation was aborted', 'AbortError');
        }
        return refuse();
      },
    });
    const result = await run({ store, models: factory, signal: controller.signal });
    expect(result.stopped).toBe('interrupted');
    expect(calls).toHaveLength(2);
    expect((await store.readSamples()).map((record) => record.id)).toEqual([ids[0]]);
    expect(result.summary).toMatchObject({ complete: false, stopReason: 'interrupted', counts: { missing: 3 } });
  });

  it('does not start anything when the signal is already aborted', async () => {
    const store = await freshStore();
    const { factory, calls } = scriptedModelRoles({ respond: refuse });
    const result = await run({ store, models: factory, signal: AbortSignal.abort() });
    expect(result.stopped).toBe('interrupted');
    expect(calls).toHaveLength(0);
    expect(result.summary.counts.missing).toBe(4);
  });

  it('rethrows a store failure after in-flight samples settle', async () => {
    const store = await freshStore();
    const broken = Object.assign(Object.create(store) as InMemoryRunStore, {
      appendSample: async () => {
        throw new Error('disk full');
      },
    });
    const { factory, calls } = scriptedModelRoles({ respond: refuse });
    await expect(run({ store: broken, models: factory })).rejects.toThrow('disk full');
    expect(calls).toHaveLength(1);
  });
});

describe('runEvaluation fail-fast', () => {
  const refused = () =>
    new ProviderError('mock:scripted: request failed: connect ECONNREFUSED 127.0.0.1:9', {
      kind: 'unreachable',
      endpoint: 'http://127.0.0.1:9/v1',
      cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }),
    });
  const many = expandSamples({ suite: toyLeakSuite, scenarios: toyLeakScenarios, options: {}, epochs: 3, seed: 0 });

  it('stops after the first k samples fail with the same provider cause, and resumes to the uninterrupted result', async () => {
    const store = new InMemoryRunStore();
    await store.writeHeader(testRunHeader({ runId: 'ff', sampleIds: many.map((sample) => sample.id) }));
    const dead = scriptedModelRoles({
      respond: () => {
        throw refused();
      },
    });
    const stopped = await run({
      store,
      models: dead.factory,
      samples: many,
      failFast: { consecutive: 3, maxErrorRate: 1 },
    });
    expect(stopped.stopped).toBe('fail-fast');
    expect(stopped.executed).toBe(3);
    expect(dead.calls).toHaveLength(3);
    expect(stopped.failFast).toMatchObject({
      rule: 'consecutive',
      cause: { name: 'ProviderError', message: 'connection refused', endpoint: 'http://127.0.0.1:9/v1' },
      message: 'the first 3 samples failed with the same cause: connection refused http://127.0.0.1:9/v1',
    });
    expect(stopped.summary).toMatchObject({
      complete: false,
      stopReason: 'fail-fast',
      counts: { planned: 12, success: 0, error: 3, missing: 9 },
      failures: { errored: 3, judgeErrored: 0, judgeErrors: 0, rate: 1 },
      errorCauses: [
        {
          kind: 'sample',
          name: 'ProviderError',
          message: 'connection refused',
          endpoint: 'http://127.0.0.1:9/v1',
          count: 3,
          exampleSampleId: many[0]?.id,
        },
      ],
    });

    // The server is back: resuming with --retry-errors gives what an uninterrupted run gives.
    const resumed = await run({
      store,
      models: scriptedModelRoles({ respond: refuse }).factory,
      samples: many,
      retryErrors: true,
      failFast: { consecutive: 3, maxErrorRate: 1 },
    });
    const fresh = new InMemoryRunStore();
    await fresh.writeHeader(testRunHeader({ runId: 'ff', sampleIds: many.map((sample) => sample.id) }));
    const uninterrupted = await run({
      store: fresh,
      models: scriptedModelRoles({ respond: refuse }).factory,
      samples: many,
    });
    expect(resumed.stopped).toBeUndefined();
    expect(resumed.summary.metrics).toEqual(uninterrupted.summary.metrics);
    expect(resumed.summary.counts).toEqual(uninterrupted.summary.counts);
    expect(resumed.summary.errorCauses).toEqual([]);
    // Every call is counted: the three refused calls of the superseded records, and twelve answers.
    expect(resumed.summary.usage.agent?.calls).toBe(15);
    expect(resumed.summary.supersededUsage?.agent?.calls).toBe(3);
    expect(uninterrupted.summary.usage.agent?.calls).toBe(12);
  });

  it('does not stop on failures that are not the same provider cause, nor on an ok sample between them', async () => {
    const store = new InMemoryRunStore();
    await store.writeHeader(testRunHeader({ runId: 'ff', sampleIds: many.map((sample) => sample.id) }));
    let call = 0;
    const flaky = scriptedModelRoles({
      respond: () => {
        call += 1;
        if (call % 3 === 0) return refuse();
        throw refused();
      },
    });
    const result = await run({
      store,
      models: flaky.factory,
      samples: many,
      failFast: { consecutive: 3, maxErrorRate: 1 },
    });
    expect(result.stopped).toBeUndefined();
    expect(result.executed).toBe(12);
  });

  it('stops once the error rate passes the threshold after enough samples', async () => {
    const store = new InMemoryRunStore();
    await store.writeHeader(testRunHeader({ runId: 'ff', sampleIds: many.map((sample) => sample.id) }));
    let call = 0;
    const half = scriptedModelRoles({
      respond: () => {
        call += 1;
        if (call % 2 === 0) return refuse();
        throw new TypeError('bad reply');
      },
    });
    const result = await run({
      store,
      models: half.factory,
      samples: many,
      failFast: { consecutive: 0, maxErrorRate: 0.2, minSamples: 4 },
    });
    expect(result.stopped).toBe('fail-fast');
    expect(result.executed).toBe(4);
    expect(result.failFast).toMatchObject({
      rule: 'error-rate',
      failed: 2,
      finished: 4,
      message: '2 of 4 samples failed (50%, over --max-error-rate 20%); most common cause: TypeError: bad reply ×2',
    });
  });
});

describe('runEvaluation validation', () => {
  it('stores the same records whether or not each event and record is checked against the run format', async () => {
    const stored = async (validate: boolean) => {
      const store = await freshStore();
      await run({ store, models: scriptedModelRoles({ respond: refuse }).factory, validate });
      return store.readSamples({ history: true });
    };
    const checked = await stored(true);
    expect(checked).toHaveLength(4);
    expect(await stored(false)).toEqual(checked);
  });

  it('checks the scores a scorer returns even without full validation: a malformed one fails its sample', async () => {
    const sloppy = defineSuite<{ id: string }, string, Record<string, never>>({
      ...toyLeakSuite,
      options: z.object({}),
      dataset: { name: 'sloppy', files: () => [], load: async () => [{ id: 'one' }], id: (scenario) => scenario.id },
      solve: async () => ({ output: 'hello' }),
      scorers: [
        {
          id: 'sloppy',
          version: 1,
          // A JavaScript scorer can return what its type forbids.
          score: async () => [{ scorer: 'sloppy@1', verdict: 'passed' as 'pass', value: 1 }],
        },
      ],
      metrics: { compute: () => ({ metrics: {} }), definitions: [] },
    });
    const store = new InMemoryRunStore();
    await store.writeHeader(testRunHeader({ runId: 'sloppy', sampleIds: ['one#e1'] }));
    await runEvaluation({
      suite: sloppy,
      options: {},
      scenarios: [{ id: 'one' }],
      samples: [{ id: 'one#e1', scenarioId: 'one', variant: {}, epoch: 1, seed: 0 }],
      store,
      models: scriptedModelRoles({ respond: refuse }).factory,
      validate: false,
    });
    const [record] = await store.readSamples();
    expect(record).toMatchObject({ status: 'error', scores: [], error: { name: 'TypeError' } });
    expect(record?.error?.message).toMatch(/^scorer 'sloppy@1' returned an invalid score: .* at verdict$/);
  });

  it('with validate, refuses to append a record that does not match the run format', async () => {
    const odd = defineSuite<{ id: string }, number, Record<string, never>>({
      ...toyLeakSuite,
      options: z.object({}),
      dataset: { name: 'odd', files: () => [], load: async () => [{ id: 'one' }], id: (scenario) => scenario.id },
      // A typed-code bug the format catches: a terminationReason that is not a string.
      solve: async () => ({ output: 1, terminationReason: 7 as unknown as string }),
      scorers: [],
      metrics: { compute: () => ({ metrics: {} }), definitions: [] },
    });
    const attempt = async (validate: boolean) => {
      const store = new InMemoryRunStore();
      await store.writeHeader(testRunHeader({ runId: 'odd', sampleIds: ['one#e1'] }));
      await runEvaluation({
        suite: odd,
        options: {},
        scenarios: [{ id: 'one' }],
        samples: [{ id: 'one#e1', scenarioId: 'one', variant: {}, epoch: 1, seed: 0 }],
        store,
        models: scriptedModelRoles({ respond: refuse }).factory,
        validate,
      });
      return store.appendedCount;
    };
    await expect(attempt(true)).rejects.toThrow(/refusing to store an invalid sample record: .* at terminationReason/);
    expect(await attempt(false)).toBe(1);
  });
});
