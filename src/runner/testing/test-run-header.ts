import { type RunPlanInput, runPlanSchema } from '../../spec/run-plan.js';
import { FORMAT_VERSION, type RunHeader } from '../../spec/run-record.js';
import { planHash } from '../plan-hash.js';

/**
 * A valid run header for tests: the plan is parsed with defaults, `planHash` is computed from it,
 * and `shard` is copied from the plan. Only what a test names differs from the defaults.
 */
export function testRunHeader({
  runId = 'test-run',
  plan = { suite: 'toy-leak' },
  sampleIds = [],
  datasetHash = 'none',
}: {
  runId?: string;
  plan?: RunPlanInput;
  sampleIds?: string[];
  datasetHash?: string;
} = {}): RunHeader {
  const parsed = runPlanSchema.parse(plan);
  return {
    formatVersion: FORMAT_VERSION,
    runId,
    createdAt: '2025-01-02T03:04:05.000Z',
    confidantVersion: '0.0.0-test',
    nodeVersion: 'v20.0.0',
    dependencyVersions: {},
    plan: parsed,
    planHash: planHash(parsed),
    suite: { id: parsed.suite, version: 1 },
    dataset: { name: parsed.suite, files: [], hash: datasetHash },
    models: { agent: [{ provider: 'mock', modelId: 'scripted', endpoints: [], settings: {} }] },
    judges: [],
    defenses: parsed.defenses,
    ...(parsed.shard ? { shard: parsed.shard } : {}),
    sampleIds,
  };
}
