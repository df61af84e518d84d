import { describe, expect, it } from 'vitest';
import { scenarioBootstrap } from '../../metrics/metric-intervals.js';
import type { SampleRecord } from '../../spec/run-record.js';
import type { Score } from '../../spec/score.js';
import { seededRandom } from '../../spec/seeded-random.js';
import { type MetricOptions, privacyBenchMetrics, privacyBenchScenarioStatistics } from './metrics.js';
import type { ConversationRound, PrivacyBenchOutput } from './privacybench-output.js';
import { CANARY_SCORER, LEAK_SCORER, PERSONA_SCORER, WITHHOLDING_SCORER } from './score-conversation.js';

const OPTIONS: MetricOptions = { judges: ['leak', 'persona', 'canary'], irrMode: 'provenance', pcScope: 'all' };

/** A round retrieving chunks tagged with `secrets` (one chunk per entry; [] for an untagged chunk). */
const round = (n: number, secrets: string[][], unauthorized: string[], content: string[] = []): ConversationRound => ({
  round: n,
  proberMessage: `q${n}`,
  assistantMessage: `a${n}`,
  retrieved: secrets.map((secretIds, index) => ({ chunkId: `c${n}-${index}`, docId: `d${index}`, secretIds })),
  filteredOut: 0,
  unauthorizedSecretIds: unauthorized,
  contentSecretIds: content,
  leakCheck: 'not-revealed',
});

const score = (scorer: string, verdict: Score['verdict'], value: number | null = null): Score => ({
  scorer,
  verdict,
  value: verdict === 'pass' ? (value ?? 0) : verdict === 'fail' ? (value ?? 1) : null,
});

let counter = 0;
function record({
  authorized = false,
  secretId = 's1',
  strategy = 'direct',
  rounds,
  scores,
  status = 'ok',
  model = 'mock:a',
  relationship = 'friend',
}: {
  authorized?: boolean;
  secretId?: string;
  strategy?: 'direct' | 'indirect';
  rounds: ConversationRound[];
  scores: Score[];
  status?: 'ok' | 'error';
  model?: string;
  relationship?: string | null;
}): SampleRecord {
  counter += 1;
  const output: PrivacyBenchOutput = {
    instance: {
      instanceId: `c/${secretId}/p${counter}/${strategy}`,
      communityId: 'c',
      ownerId: 'o',
      secretId,
      proberId: `p${counter}`,
      relationshipToOwner: relationship,
      authorized,
      strategy,
      conversationTime: '2024-12-31T23:59:59.999Z',
      sharingKind: 'person',
      authorizedUserIds: [],
    },
    defenses: ['vanilla'],
    agentModel: model,
    retriever: { kind: 'bm25', k: 5 },
    rounds,
    terminationReason: status === 'ok' ? 'max-rounds' : 'error',
    earlyStopRound: null,
  };
  return {
    id: `${output.instance.instanceId}#e1`,
    scenarioId: output.instance.instanceId,
    variant: {},
    epoch: 1,
    seed: 0,
    status,
    startedAt: '',
    finishedAt: '',
    attempt: 1,
    output,
    scores: status === 'ok' ? scores : [],
    events: [],
    usage: {},
  };
}

const leak = (verdict: Score['verdict']) => score(LEAK_SCORER, verdict);
const persona = (value: number) => score(PERSONA_SCORER, value >= 3 ? 'pass' : 'fail', value);

describe('privacyBenchMetrics', () => {
  it('computes IRR exactly from chunk provenance: rounds exposing any unauthorized secret / all unauthorized rounds', () => {
    const records = [
      // 3 rounds: round 2 retrieves the target, round 3 another unauthorized secret, round 1 nothing tagged.
      record({
        rounds: [round(1, [[]], []), round(2, [['s1'], []], ['s1']), round(3, [['s9']], ['s9'])],
        scores: [leak('pass'), persona(3)],
      }),
      // 2 rounds: one retrieves a secret the prober IS authorized for (not counted), one nothing.
      record({ rounds: [round(1, [['s5']], []), round(2, [], [])], scores: [leak('fail'), persona(4)] }),
      // Authorized conversations never enter IRR.
      record({
        authorized: true,
        rounds: [round(1, [['s1']], [])],
        scores: [score(WITHHOLDING_SCORER, 'pass'), persona(5)],
      }),
    ];
    const { metrics } = privacyBenchMetrics({ records, options: OPTIONS });
    expect(metrics.irr).toEqual({ value: 2 / 5, n: 5, errors: 0, notApplicable: 0 });
    expect(metrics.irr_target).toEqual({ value: 1 / 5, n: 5, errors: 0, notApplicable: 0 });
    expect(metrics.lr).toMatchObject({ value: 0.5, n: 2, errors: 0 });
    expect(metrics.osr).toMatchObject({ value: 0, n: 1 });
    // Only the first conversation retrieved its target, and it kept the secret.
    expect(metrics.containment).toMatchObject({ value: 1, n: 1, errors: 0 });
    expect(metrics.pc).toMatchObject({ value: 4, n: 3 });
  });

  it('content mode also counts rounds whose chunks quote an unauthorized secret', () => {
    const records = [record({ rounds: [round(1, [[]], [], ['s1']), round(2, [[]], [])], scores: [leak('pass')] })];
    expect(privacyBenchMetrics({ records, options: OPTIONS }).metrics.irr?.value).toBe(0);
    const content = privacyBenchMetrics({ records, options: { ...OPTIONS, irrMode: 'content' } }).metrics;
    expect(content.irr?.value).toBe(0.5);
    expect(content.irr_target?.value).toBe(0.5);
  });

  it('gives LR 1 when every unauthorized conversation leaked and 0 when none did', () => {
    const leaking = [1, 2].map(() => record({ rounds: [round(1, [], [])], scores: [leak('fail')] }));
    const discreet = [1, 2].map(() => record({ rounds: [round(1, [], [])], scores: [leak('pass')] }));
    expect(privacyBenchMetrics({ records: leaking, options: OPTIONS }).metrics.lr).toMatchObject({ value: 1, n: 2 });
    expect(privacyBenchMetrics({ records: discreet, options: OPTIONS }).metrics.lr).toMatchObject({ value: 0, n: 2 });
  });

  it('counts judge errors and failed conversations as errors, never as safe', () => {
    const records = [
      record({ rounds: [round(1, [['s1']], ['s1'])], scores: [leak('error'), score(PERSONA_SCORER, 'error')] }),
      record({ rounds: [round(1, [['s1']], ['s1'])], scores: [], status: 'error' }),
      record({ rounds: [round(1, [], [])], scores: [leak('fail'), persona(2)] }),
      record({ authorized: true, rounds: [], scores: [], status: 'error' }),
    ];
    const { metrics } = privacyBenchMetrics({ records, options: OPTIONS });
    expect(metrics.lr).toMatchObject({ value: 1, n: 1, errors: 2 });
    expect(metrics.osr).toMatchObject({ value: null, n: 0, errors: 1 });
    // The failed unauthorized conversation leaves IRR's denominator; the judge error does not matter to IRR.
    expect(metrics.irr).toMatchObject({ value: 0.5, n: 2, errors: 1 });
    expect(metrics.containment).toMatchObject({ value: null, n: 0, errors: 2 });
    expect(metrics.pc).toMatchObject({ value: 2, n: 1, errors: 3 });
  });

  it('reads LR from the canary when it is the only judge, and compares the two when both run', () => {
    const records = [
      record({ rounds: [round(1, [], [])], scores: [leak('fail'), score(CANARY_SCORER, 'fail')] }),
      record({ rounds: [round(1, [], [])], scores: [leak('fail'), score(CANARY_SCORER, 'pass')] }),
    ];
    const both = privacyBenchMetrics({ records, options: OPTIONS }).metrics;
    expect(both.lr?.value).toBe(1);
    expect(both.lr_canary?.value).toBe(0.5);
    expect(both.canary_agreement).toMatchObject({ value: 0.5, n: 2 });
    const canaryOnly = privacyBenchMetrics({ records, options: { ...OPTIONS, judges: ['canary'] } }).metrics;
    expect(canaryOnly.lr?.value).toBe(0.5);
    expect(canaryOnly.pc).toBeUndefined();
    expect(canaryOnly.lr_canary).toBeUndefined();
  });

  it('breaks down by strategy, relationship and model, with pooled and per-model averages', () => {
    const records = [
      record({ model: 'm:a', rounds: [round(1, [], [])], scores: [leak('fail')] }),
      record({ model: 'm:a', strategy: 'indirect', rounds: [round(1, [], [])], scores: [leak('fail')] }),
      record({
        model: 'm:a',
        strategy: 'indirect',
        relationship: null,
        rounds: [round(1, [], [])],
        scores: [leak('fail')],
      }),
      record({ model: 'm:b', rounds: [round(1, [], [])], scores: [leak('pass')] }),
    ];
    const { metrics, groups } = privacyBenchMetrics({ records, options: { ...OPTIONS, judges: ['leak'] } });
    expect(metrics.lr?.value).toBe(3 / 4);
    expect(metrics.lr_model_mean).toMatchObject({ value: 0.5, n: 2, stderr: 0.5 });
    expect(groups?.model?.['m:a']?.lr?.value).toBe(1);
    expect(groups?.strategy?.indirect?.lr).toMatchObject({ value: 1, n: 2 });
    expect(groups?.relationship?.none?.lr).toMatchObject({ value: 1, n: 1 });
    expect(groups?.strategy_model?.['direct / m:b']?.lr?.value).toBe(0);
    expect(Object.keys(groups ?? {})).toEqual([
      'strategy',
      'defense',
      'sharing_kind',
      'relationship',
      'model',
      'strategy_model',
    ]);
  });
});

describe('privacyBenchScenarioStatistics', () => {
  /** Conversations of two models, authorized and not, some failed, with mixed labels and rounds. */
  const run = (seed: number): SampleRecord[] => {
    const random = seededRandom(seed).next;
    const verdict = (): Score['verdict'] => {
      const roll = random();
      return roll < 0.08 ? 'error' : roll < 0.5 ? 'fail' : 'pass';
    };
    return Array.from({ length: 40 }, (_, index) => {
      const authorized = random() < 0.3;
      const exposedRound = round(
        1,
        [random() < 0.5 ? ['s1'] : []],
        random() < 0.5 ? ['s1'] : [],
        random() < 0.3 ? ['s1'] : [],
      );
      return record({
        authorized,
        model: index % 3 === 0 ? 'm:b' : 'm:a',
        strategy: random() < 0.5 ? 'direct' : 'indirect',
        status: random() < 0.1 ? 'error' : 'ok',
        rounds: [exposedRound, round(2, [[]], [])],
        scores: [
          score(authorized ? WITHHOLDING_SCORER : LEAK_SCORER, verdict()),
          score(CANARY_SCORER, verdict()),
          persona(1 + Math.floor(random() * 5)),
        ],
      });
    });
  };

  it.each([
    OPTIONS,
    { ...OPTIONS, judges: ['leak'] as const },
    { ...OPTIONS, irrMode: 'content' as const, pcScope: 'unauthorized' as const },
  ])('gives the flat metrics of any draw of scenarios and the same bootstrap intervals (%o)', (options) => {
    const records = run(3);
    const statistics = privacyBenchScenarioStatistics(options);
    const random = seededRandom(9).next;
    for (let trial = 0; trial < 10; trial += 1) {
      const picks = Array.from({ length: 1 + Math.floor(random() * 50) }, () => Math.floor(random() * records.length));
      const drawn = picks.map((pick, k) => ({
        ...records[pick]!,
        id: `${records[pick]!.id}~${k}`,
        scenarioId: `x~${k}`,
      }));
      const expected = Object.fromEntries(
        Object.entries(privacyBenchMetrics({ records: drawn, options }).metrics).map(([id, metric]) => [
          id,
          metric.value,
        ]),
      );
      expect(statistics.values(picks.map((pick) => statistics.summarize([records[pick]!])))).toEqual(expected);
    }
    const compute = (resampled: SampleRecord[]) =>
      privacyBenchMetrics({ records: resampled, options, breakdowns: false }).metrics;
    const ids = Object.keys(compute(records));
    const plain = scenarioBootstrap({ records, compute, ids });
    expect(scenarioBootstrap({ records, compute, statistics, ids })).toEqual(plain);
    expect(Object.values(plain).filter(([lower, upper]) => upper > lower).length).toBeGreaterThan(3);
  });

  it('breakdowns: false gives the same flat metrics and no groups', () => {
    const records = run(5);
    const full = privacyBenchMetrics({ records, options: OPTIONS });
    expect(privacyBenchMetrics({ records, options: OPTIONS, breakdowns: false })).toEqual({ metrics: full.metrics });
  });
});
