import { createModelRolesFactory } from '../../../models/model-roles.js';
import { expandSamples } from '../../../runner/expand-samples.js';
import { MODEL_ROLES } from '../../../runner/role-registry.js';
import { runEvaluation } from '../../../runner/run-evaluation.js';
import { testRunHeader } from '../../../runner/testing/test-run-header.js';
import type { ModelRolesFactory } from '../../../spec/chat-model.js';
import { InMemoryRunStore } from '../../../store/in-memory-run-store.js';
import { pacSuite } from '../suite.js';

/**
 * Runs the registered `pac` suite end to end through `runEvaluation` into an in-memory store:
 * options are parsed like the CLI does (defaults applied), scenarios loaded, samples expanded.
 * Concurrency is 1 so scripted models answer in sample order.
 */
export async function runPac({
  options,
  models = createModelRolesFactory({ roles: MODEL_ROLES, bindings: {} }),
  epochs = 1,
}: {
  options: Record<string, unknown>;
  models?: ModelRolesFactory;
  epochs?: number;
}) {
  const parsed = pacSuite.options.parse(options);
  const scenarios = await pacSuite.dataset.load({ dataDir: '/nonexistent', options: parsed });
  const samples = expandSamples({ suite: pacSuite, scenarios, options: parsed, epochs, seed: 0 });
  const store = new InMemoryRunStore();
  await store.writeHeader(testRunHeader({ plan: { suite: 'pac' }, sampleIds: samples.map((sample) => sample.id) }));
  const result = await runEvaluation({
    suite: pacSuite,
    options: parsed,
    scenarios,
    samples,
    store,
    models,
    concurrency: 1,
  });
  return { ...result, samples, records: await store.readSamples() };
}

/** Deterministic judging: marker task judge and keyword-only privacy judge (no judge model). */
export const DETERMINISTIC = { split: 'starter', taskMode: 'markers', privacyMode: 'keyword-only' } as const;
