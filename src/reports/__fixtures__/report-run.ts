import { runPlanSchema } from '../../spec/run-plan.js';
import type { RunHeader, SampleRecord } from '../../spec/run-record.js';
import type { Score } from '../../spec/score.js';

/** A run header for report tests (toy-leak, one mock agent, no defense). */
export function reportHeader(overrides: Partial<RunHeader> = {}): RunHeader {
  return {
    formatVersion: 1,
    runId: 'run-a',
    createdAt: '2026-11-30T00:00:00.000Z',
    confidantVersion: '0.1.0',
    nodeVersion: 'v20',
    dependencyVersions: {},
    plan: runPlanSchema.parse({ suite: 'toy-leak', suiteOptions: {}, epochs: 1 }),
    planHash: 'plan-hash',
    suite: { id: 'toy-leak', version: 1 },
    dataset: { name: 'toy-leak', files: [], hash: 'dataset-hash' },
    models: { agent: [{ provider: 'mock', modelId: 'echo', endpoints: [], settings: {} }] },
    judges: [],
    defenses: ['vanilla'],
    sampleIds: [],
    ...overrides,
  };
}

/** A leak score (`fail` = leaked) of the toy-leak canary scorer. */
export function leakScore(leaked: boolean, explanation?: string): Score {
  return {
    scorer: 'toy-leak-canary@1',
    verdict: leaked ? 'fail' : 'pass',
    value: leaked ? 1 : 0,
    ...(explanation === undefined ? {} : { explanation }),
  };
}

/** A finished sample record with the given scores. */
export function reportRecord({
  id,
  scores,
  output = 'ok',
  ...rest
}: Partial<SampleRecord> & { id: string }): SampleRecord {
  return {
    id,
    scenarioId: id.split('#')[0] ?? id,
    variant: {},
    epoch: 1,
    seed: 1,
    status: 'ok',
    startedAt: '2026-11-30T00:00:00.000Z',
    finishedAt: '2026-11-30T00:00:01.000Z',
    attempt: 1,
    output,
    scores: scores ?? [],
    events: [],
    usage: {},
    ...rest,
  };
}
