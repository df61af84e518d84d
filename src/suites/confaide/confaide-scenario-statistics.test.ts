import { describe, expect, it } from 'vitest';
import { scenarioBootstrap } from '../../metrics/metric-intervals.js';
import type { SampleRecord } from '../../spec/run-record.js';
import type { Score } from '../../spec/score.js';
import { seededRandom } from '../../spec/seeded-random.js';
import { confaideOptionsSchema } from './confaide-options.js';
import { QUESTIONS_BY_TIER } from './confaide-scenario.js';
import { confaideScenarioStatistics } from './confaide-scenario-statistics.js';
import { METRIC_COMPONENTS, PROXY_COMPONENT, scorerId } from './metric-components.js';
import { confaideMetrics } from './metrics.js';
import { PROXY_SCORER } from './proxy-judge.js';

type Random = () => number;

const verdict = (random: Random, leakiness: number): Score['verdict'] => {
  const roll = random();
  if (roll < 0.05) return 'error';
  if (roll < 0.1) return 'not-applicable';
  return random() < leakiness ? 'fail' : 'pass';
};

/** A record of one question type with a score per component (some missing, some errored, some n/a). */
function storyRecord({
  random,
  scenarioId,
  question,
  epoch,
  leakiness,
}: {
  random: Random;
  scenarioId: string;
  question: string;
  epoch: number;
  leakiness: number;
}): SampleRecord {
  const failed = random() < 0.05;
  const components = [
    ...(METRIC_COMPONENTS[question as keyof typeof METRIC_COMPONENTS] ?? []).map((component) => ({
      scorer: scorerId(question as never),
      target: component.target,
    })),
    ...(question === 'free-response' ? [{ scorer: PROXY_SCORER, target: PROXY_COMPONENT.target }] : []),
  ];
  const scores: Score[] = components.flatMap(({ scorer, target }) => {
    if (random() < 0.05) return [];
    const v = verdict(random, leakiness);
    return [{ scorer, target: { name: target }, verdict: v, value: v === 'fail' ? 1 : v === 'pass' ? 0 : null }];
  });
  return {
    id: `${scenarioId}:${question}:${epoch}`,
    scenarioId,
    variant: { question },
    epoch,
    seed: 0,
    status: failed ? 'error' : 'ok',
    startedAt: '',
    finishedAt: '',
    attempt: 1,
    output: {
      question,
      response: '',
      stages: [],
      attempts: 1,
      ...(question === 'control' ? { controlMismatch: random() < 0.2 } : {}),
    },
    scores: failed ? [] : scores,
    events: [],
    usage: {},
  };
}

function ratingRecord({
  random,
  scenarioId,
  epoch,
  label,
}: {
  random: Random;
  scenarioId: string;
  epoch: number;
  label: number;
}): SampleRecord {
  const roll = random();
  const score: Score =
    roll < 0.1
      ? { scorer: 'confaide-rating@1', target: { name: 'rating' }, verdict: 'error', value: null }
      : roll < 0.15
        ? { scorer: 'confaide-rating@1', target: { name: 'rating' }, verdict: 'not-applicable', value: null }
        : {
            scorer: 'confaide-rating@1',
            target: { name: 'rating' },
            verdict: 'pass',
            value: Math.round(label + (random() - 0.5) * 60),
          };
  return {
    id: `${scenarioId}:rating:${epoch}`,
    scenarioId,
    variant: { question: 'rating' },
    epoch,
    seed: 0,
    status: 'ok',
    startedAt: '',
    finishedAt: '',
    attempt: 1,
    output: {
      question: 'rating',
      response: '',
      stages: [],
      attempts: 1,
      ...(random() < 0.9 ? { humanLabel: label } : {}),
    },
    scores: [score],
    events: [],
    usage: {},
  };
}

/** Scenarios of every question type of a tier, 1–4 epochs each, records interleaved as a run appends them. */
function run({ tier, scenarios, seed }: { tier: '1' | '3' | '4'; scenarios: number; seed: number }): SampleRecord[] {
  const random = seededRandom(seed).next;
  const records: SampleRecord[] = [];
  for (let s = 0; s < scenarios; s += 1) {
    const scenarioId = s % 7 === 3 ? `t${tier}-s~${s}` : `t${tier}-s${s}`;
    const epochs = 1 + Math.floor(random() * 4);
    const leakiness = (s % 5) / 4;
    for (let epoch = 1; epoch <= epochs; epoch += 1) {
      if (tier === '1') records.push(ratingRecord({ random, scenarioId, epoch, label: -100 + (s % 9) * 25 }));
      else
        for (const question of QUESTIONS_BY_TIER[tier])
          records.push(storyRecord({ random, scenarioId, question, epoch, leakiness }));
    }
  }
  // Not in scenario order: a run appends samples as they finish.
  for (let index = records.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [records[index], records[other]] = [records[other]!, records[index]!];
  }
  return records;
}

const plans = [
  { tier: '3', options: { tier: '3' } },
  { tier: '3', options: { tier: '3', tier3Proxy: 'on' } },
  { tier: '3', options: { tier: '3', questions: 'free-response' } },
  { tier: '3', options: { tier: '3', questions: 'control,privacy-sharing' } },
  { tier: '4', options: { tier: '4' } },
  { tier: '1', options: { tier: '1' } },
] as const;

describe('confaideScenarioStatistics', () => {
  it.each(plans)(
    'gives the flat metrics of any draw of scenarios, repeats included ($options)',
    ({ tier, options }) => {
      const parsed = confaideOptionsSchema.parse(options);
      const records = run({ tier, scenarios: 30, seed: 7 });
      const scenarios = [...new Set(records.map((record) => record.scenarioId))].map((id) =>
        records.filter((record) => record.scenarioId === id),
      );
      const statistics = confaideScenarioStatistics(parsed);
      const summaries = scenarios.map((list) => statistics.summarize(list));
      const random = seededRandom(3).next;
      for (let trial = 0; trial < 20; trial += 1) {
        const picks = Array.from({ length: 1 + Math.floor(random() * 40) }, () =>
          Math.floor(random() * scenarios.length),
        );
        const concatenated = picks.flatMap((pick, k) =>
          (scenarios[pick] ?? []).map((record) => ({
            ...record,
            id: `${record.id}~${k}`,
            scenarioId: `${record.scenarioId}~${k}`,
          })),
        );
        const expected = Object.fromEntries(
          Object.entries(confaideMetrics({ records: concatenated, options: parsed }).metrics).map(([id, metric]) => [
            id,
            metric.value,
          ]),
        );
        expect(statistics.values(picks.map((pick) => summaries[pick]))).toEqual(expected);
      }
    },
  );

  it.each(plans)(
    'gives the summary bootstrap the same intervals as recomputing the records ($options)',
    ({ tier, options }) => {
      const parsed = confaideOptionsSchema.parse(options);
      const records = run({ tier, scenarios: 60, seed: 11 });
      const compute = (resampled: SampleRecord[]) =>
        confaideMetrics({ records: resampled, options: parsed, breakdowns: false }).metrics;
      const ids = Object.keys(compute(records));
      const plain = scenarioBootstrap({ records, compute, ids });
      const fast = scenarioBootstrap({ records, compute, statistics: confaideScenarioStatistics(parsed), ids });
      expect(fast).toEqual(plain);
      // Real intervals: the scenarios differ, so most metrics get one with width.
      expect(Object.values(plain).filter(([lower, upper]) => upper > lower).length).toBeGreaterThan(ids.length / 2);
    },
  );
});
