import { expandSamples } from '../../../runner/expand-samples.js';
import { runEvaluation } from '../../../runner/run-evaluation.js';
import { type ScriptedCall, scriptedModelRoles } from '../../../runner/testing/scripted-model-roles.js';
import { testRunHeader } from '../../../runner/testing/test-run-header.js';
import { InMemoryRunStore } from '../../../store/in-memory-run-store.js';
import { caseLeak } from '../../../suites/privacylens/__fixtures__/fixture-cases.js';
import { treeScript } from '../../../suites/privacylens/__fixtures__/privact-tree-script.js';
import { privactTreeSuite } from '../../../suites/privacylens/index.js';
import type { PrivacyLensCase } from '../../../suites/privacylens/privacylens-case.js';
import { suiteJudges } from '../../../suites/suite.js';

/**
 * A judged `privact-tree` run in memory (test only): the scripted G>V>R tree of
 * `privact-tree-script.ts` over `scenarios`, built by the real runner and suite. The header names
 * the two PrivacyLens judges, as a real run's does.
 */
export async function treeRunFixture({
  suiteOptions = { branching: '2,2,2' },
  scenarios = [caseLeak],
  override,
  label = 'tree',
  roles = ['generator', 'verifier', 'refiner', 'judge'],
}: {
  suiteOptions?: Record<string, unknown>;
  scenarios?: PrivacyLensCase[];
  override?: (call: ScriptedCall, prompt: string) => string | undefined;
  label?: string;
  /** Model roles the scripted models answer (the chain's roles and `judge`). */
  roles?: string[];
} = {}): Promise<InMemoryRunStore> {
  const suite = privactTreeSuite;
  const options = suite.options.parse(suiteOptions);
  const samples = expandSamples({ suite, scenarios, options, epochs: 1, seed: 0 });
  const store = new InMemoryRunStore(label);
  const header = testRunHeader({
    runId: `run-${label}`,
    plan: { suite: suite.id, suiteOptions },
    sampleIds: samples.map((sample) => sample.id),
  });
  await store.writeHeader({ ...header, judges: suiteJudges({ scorers: suite.scorers, options }) });
  const { factory } = scriptedModelRoles({
    respond: treeScript({ cases: scenarios, ...(override ? { override } : {}) }),
    roles,
  });
  await runEvaluation({ suite, options, scenarios, samples, store, models: factory, concurrency: 1 });
  return store;
}
