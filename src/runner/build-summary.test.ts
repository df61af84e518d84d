import { describe, expect, it } from 'vitest';
import type { SampleRecord } from '../spec/run-record.js';
import type { RunStore } from '../spec/run-store.js';
import { testSampleRecord } from '../store/run-store.contract.js';
import { toyLeakSuite } from '../suites/toy-leak/suite.js';
import { buildSummary, summarizeStore } from './build-summary.js';

const leak = [{ scorer: 'toy-leak-canary@1', verdict: 'fail' as const, value: 1 }];
const safe = [{ scorer: 'toy-leak-canary@1', verdict: 'pass' as const, value: 0 }];
const usage = (costUsd: number | null) => ({
  agent: { calls: 1, inputTokens: 10, outputTokens: 5, costUsd, cachedCalls: 0 },
});

describe('buildSummary', () => {
  it('counts planned, success, error and missing; ignores unplanned records; sums usage', () => {
    const summary = buildSummary({
      runId: 'r',
      suite: toyLeakSuite,
      options: {},
      planned: ['a#e1', 'b#e1', 'c#e1', 'd#e1'],
      records: [
        testSampleRecord({ id: 'a#e1', scores: leak, usage: usage(0.5) }),
        testSampleRecord({
          id: 'b#e1',
          status: 'error',
          scores: [],
          error: { name: 'ProviderError', message: 'x' },
          usage: usage(0.25),
        }),
        testSampleRecord({ id: 'c#e1', scores: safe, usage: usage(0.25) }),
        testSampleRecord({ id: 'z#e1', scores: leak, usage: usage(100) }),
      ],
      now: new Date(Date.UTC(2025, 0, 1)),
      stopReason: 'budget',
    });
    expect(summary).toEqual({
      formatVersion: 1,
      runId: 'r',
      finishedAt: '2025-01-01T00:00:00.000Z',
      complete: false,
      stopReason: 'budget',
      counts: { planned: 4, success: 2, error: 1, missing: 1 },
      // Wilson interval for 1 of 2, computed by hand from the closed form.
      metrics: {
        leak_rate: {
          value: 0.5,
          n: 2,
          errors: 1,
          notApplicable: 0,
          stderr: Math.sqrt(0.25 / 2),
          ci95: [expect.closeTo(0.09453120573423074, 12), expect.closeTo(0.9054687942657693, 12)],
          ciMethod: 'wilson',
        },
      },
      usage: { agent: { calls: 3, inputTokens: 30, outputTokens: 15, costUsd: 1, cachedCalls: 0 } },
      costUsd: 1,
      errorsByName: { ProviderError: 1 },
      failures: { errored: 1, judgeErrored: 0, judgeErrors: 0, rate: 1 / 3 },
      errorCauses: [{ kind: 'sample', name: 'ProviderError', message: 'x', count: 1, exampleSampleId: 'b#e1' }],
      judges: [],
    });
  });

  it('is complete when nothing is missing, keeps the last record per id, and nulls an unknown cost', () => {
    const summary = buildSummary({
      runId: 'r',
      suite: toyLeakSuite,
      options: {},
      planned: ['a#e1'],
      records: [
        testSampleRecord({ id: 'a#e1', status: 'error', scores: [], error: { name: 'X', message: 'x' } }),
        testSampleRecord({ id: 'a#e1', attempt: 2, scores: safe, usage: usage(null) }),
      ],
    });
    expect(summary.complete).toBe(true);
    expect(summary.stopReason).toBeUndefined();
    expect(summary.counts).toEqual({ planned: 1, success: 1, error: 0, missing: 0 });
    expect(summary.costUsd).toBeNull();
    expect(summary.usage.agent?.costUsd).toBeNull();
    expect(summary.errorsByName).toEqual({});
    // The superseded error's call is counted: every call made is in the usage.
    expect(summary.usage.agent?.calls).toBe(2);
    expect(summary.supersededUsage).toEqual({
      agent: { calls: 1, inputTokens: 10, outputTokens: 5, costUsd: 0.001, cachedCalls: 0 },
    });
    expect(summary.errorCauses).toEqual([]);
  });

  it('gives every null metric a reason, naming the most common failure', () => {
    const summary = buildSummary({
      runId: 'r',
      suite: toyLeakSuite,
      options: {},
      planned: ['a#e1', 'b#e1'],
      records: ['a#e1', 'b#e1'].map((id) =>
        testSampleRecord({
          id,
          status: 'error',
          scores: [],
          error: {
            name: 'ProviderError',
            message: 'vllm:m: request failed',
            cause: { name: 'ProviderError', message: 'connection refused', endpoint: 'http://127.0.0.1:8000/v1' },
          },
        }),
      ),
    });
    expect(summary.metrics.leak_rate).toEqual({
      value: null,
      n: 0,
      errors: 2,
      notApplicable: 0,
      reason: 'all 2 verdicts were error: connection refused http://127.0.0.1:8000/v1',
    });
  });

  it('summarises judge health and samples that ran but had a judge call fail', () => {
    const judged = (id: string, verdicts: Array<'pass' | 'fail' | 'error'>) =>
      testSampleRecord({
        id,
        scores: safe,
        judgments: verdicts.map((verdict) => ({
          judge: 'leak@1',
          model: 'vllm:j',
          verdict,
          ...(verdict === 'error' ? { error: { name: 'JudgeParseError', message: "no valid 'Answer:' line" } } : {}),
        })),
      });
    const summary = buildSummary({
      runId: 'r',
      suite: toyLeakSuite,
      options: {},
      planned: ['a#e1', 'b#e1', 'c#e1'],
      records: [
        judged('a#e1', ['pass', 'error']),
        judged('b#e1', ['fail', 'pass']),
        judged('c#e1', ['error', 'error']),
      ],
    });
    expect(summary.judges).toEqual([
      {
        judge: 'leak@1',
        model: 'vllm:j',
        calls: 6,
        pass: 2,
        fail: 1,
        notApplicable: 0,
        error: 3,
        topErrors: [{ message: "JudgeParseError: no valid 'Answer:' line", count: 3 }],
      },
    ]);
    expect(summary.failures).toEqual({ errored: 0, judgeErrored: 2, judgeErrors: 3, rate: 2 / 3 });
    expect(summary.errorCauses).toEqual([
      {
        kind: 'judge',
        judge: 'leak@1',
        name: 'JudgeParseError',
        message: "no valid 'Answer:' line",
        count: 3,
        exampleSampleId: 'a#e1',
      },
    ]);
  });
});

describe('summarizeStore', () => {
  it('streams: the metrics see a small view of each record, repeating values held once, whatever the records weigh', async () => {
    const n = 2000;
    const transcript = 'x'.repeat(4000);
    let made = 0;
    let visiting = 0;
    let mostAtOnce = 0;
    // A store that makes each record only when the pass asks for it and counts how many of them
    // the summary pass has in hand at once; reading every record whole is refused.
    const store: RunStore = {
      location: 'memory:generated',
      writeHeader: async () => undefined,
      readHeader: async () => {
        throw new Error('not read');
      },
      appendSample: async () => undefined,
      readSamples: async () => {
        throw new Error('the summary must stream (scanSamples), not read every record');
      },
      scanSamples: async (_options, visit) => {
        for (let index = 0; index < n; index += 1) {
          const record = testSampleRecord({
            id: `s${index}#e1`,
            input: { prompt: `${transcript}${index}` },
            output: { answer: index % 2 === 0 ? 'a secret' : 'nothing' },
            scores: index % 2 === 0 ? leak : safe,
            events: [
              { id: `e${index}`, time: '2025-01-02T03:04:05.000Z', type: 'sample-start', sampleId: `s${index}#e1` },
            ],
            startedAt: `2025-01-02T03:04:05.${String(index % 1000).padStart(3, '0')}Z`,
          });
          made += 1;
          visiting += 1;
          mostAtOnce = Math.max(mostAtOnce, visiting);
          // A fresh copy, as parsing a line of samples.jsonl gives.
          visit(JSON.parse(JSON.stringify(record)) as SampleRecord);
          visiting -= 1;
        }
      },
      writeSummary: async () => undefined,
      readSummary: async () => null,
    };
    let seen: SampleRecord[] | undefined;
    const suite = {
      ...toyLeakSuite,
      metrics: {
        ...toyLeakSuite.metrics,
        compute: (context: Parameters<typeof toyLeakSuite.metrics.compute>[0]) => {
          seen ??= context.records;
          return toyLeakSuite.metrics.compute(context);
        },
      },
    };
    const planned = Array.from({ length: n }, (_, index) => `s${index}#e1`);
    const summary = await summarizeStore({ store, runId: 'r', suite, options: {}, planned });

    expect(made).toBe(n);
    expect(mostAtOnce).toBe(1);
    expect(summary.counts).toEqual({ planned: n, success: n, error: 0, missing: 0 });
    expect(summary.metrics.leak_rate?.value).toBe(0.5);
    const views = seen ?? [];
    expect(views).toHaveLength(n);
    // No events, no input: what is kept does not grow with the transcripts (each record > 4 KB).
    expect(views.every((view) => view.events.length === 0 && !('input' in view))).toBe(true);
    expect(JSON.stringify(views).length / n).toBeLessThan(600);
    // Values that repeat are one instance: two verdicts, one usage, one variant, not 2,000 each.
    expect(new Set(views.map((view) => view.scores)).size).toBe(2);
    expect(new Set(views.map((view) => view.usage)).size).toBe(1);
    expect(new Set(views.map((view) => view.variant)).size).toBe(1);
    expect(new Set(views.map((view) => view.output)).size).toBe(2);
  });
});
