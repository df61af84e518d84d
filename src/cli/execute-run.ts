import { type ResolvedModelRoles, resolveModelRoles } from '../models/index.js';
import { buildReport } from '../reports/build-report.js';
import { renderMarkdown } from '../reports/render-markdown.js';
import { runEvaluation } from '../runner/index.js';
import type { RunPlan } from '../spec/run-plan.js';
import type { RunStore } from '../spec/run-store.js';
import type { CliIo } from './cli-io.js';
import type { PreparedRun } from './prepare-run.js';
import { createProgressView } from './progress.js';
import { resolvePlanEmbedder } from './resolve-plan-embedder.js';
import { runOutcome } from './run-outcome.js';

/** Where model responses are cached, and whether the cache is read. */
export type CacheChoice = { dir: string; reads: boolean };

/**
 * Resolves the plan's model roles with the suite's default settings under the user's, and its
 * `--model embedder=<spec>` (if any) as the roles' embedder, with its key from the environment.
 */
export async function resolvePlanModels({
  io,
  plan,
  prepared,
  cache,
}: {
  io: CliIo;
  plan: RunPlan;
  prepared: PreparedRun;
  cache: CacheChoice;
}): Promise<ResolvedModelRoles> {
  const embedder =
    prepared.embedderBinding === undefined
      ? undefined
      : await resolvePlanEmbedder({ binding: prepared.embedderBinding, env: io.env, maxRetries: plan.maxRetries });
  return resolveModelRoles({
    bindings: prepared.modelBindings,
    ...(embedder === undefined ? {} : { embedder: embedder.embedder, embedderSpec: embedder.spec }),
    settings: planSettings({ plan, prepared }),
    env: io.env,
    cacheDir: cache.dir,
    cacheReads: cache.reads,
    maxRetries: plan.maxRetries,
    maxConnections: plan.maxConnections,
    ...(plan.maxCostUsd === undefined ? {} : { maxCostUsd: plan.maxCostUsd }),
    ...(plan.maxTokens === undefined ? {} : { maxTokens: plan.maxTokens }),
    ...(plan.prices === undefined ? {} : { prices: plan.prices }),
  });
}

/**
 * Runs (or resumes) the prepared samples into `store`, with a progress view from the first
 * second, and prints a short report, the errors by cause, the judge health and one sentence on
 * what happened, then the run directory as the last stdout line. Closes `models`. Returns the
 * exit code (see `runOutcome`): 3 when the run stopped early (budget, Ctrl-C or fail-fast) and
 * can be resumed, 4 when more than `--max-error-rate` of the samples failed (or any did, under
 * `--fail-on-error`), else 0.
 */
export async function executeRun({
  io,
  plan,
  prepared,
  store,
  models,
  retryErrors = false,
  failOnError = false,
}: {
  io: CliIo;
  plan: RunPlan;
  prepared: PreparedRun;
  store: RunStore;
  models: ResolvedModelRoles;
  retryErrors?: boolean;
  failOnError?: boolean;
}): Promise<number> {
  const progress = createProgressView({ isTTY: io.isTTY, write: io.stderr });
  try {
    const header = await store.readHeader();
    const result = await runEvaluation({
      suite: prepared.suite,
      options: prepared.options,
      scenarios: prepared.scenarios,
      samples: prepared.samples,
      store,
      models: models.factory,
      defenses: prepared.defenses,
      concurrency: plan.concurrency,
      signal: io.signal,
      retryErrors,
      failFast: { consecutive: plan.failFast, maxErrorRate: plan.maxErrorRate },
      onProgress: (snapshot) => progress.update(snapshot),
    });
    progress.stop();
    const report = buildReport({
      runs: [{ header, summary: result.summary }],
      definitions: prepared.suite.metricDefinitions,
    });
    io.stdout(`${renderMarkdown(report).split('\n## Runs')[0]?.trimEnd()}\n\n`);
    const outcome = runOutcome({
      summary: result.summary,
      stopped: result.stopped,
      failFast: result.failFast,
      location: store.location,
      maxErrorRate: plan.maxErrorRate,
      failOnError,
    });
    for (const line of outcome.lines) io.stderr(`${line}\n`);
    io.stdout(`${store.location}\n`);
    return outcome.exitCode;
  } finally {
    progress.stop();
    models.close();
  }
}

/** The settings a run applies per role: the suite's defaults under the user's `--model-setting` values. */
export function planSettings({
  plan,
  prepared,
}: {
  plan: RunPlan;
  prepared: PreparedRun;
}): Record<string, Record<string, unknown>> {
  return mergeSettings(
    prepared.suite.defaultSettings?.(prepared.options, { epochs: plan.epochs }) ?? {},
    plan.modelSettings,
  );
}

/** Suite defaults under the user's `--model-setting` values, per role. */
function mergeSettings(
  defaults: Record<string, Record<string, unknown>>,
  user: Record<string, Record<string, unknown>>,
): Record<string, Record<string, unknown>> {
  const merged: Record<string, Record<string, unknown>> = {};
  for (const role of new Set([...Object.keys(defaults), ...Object.keys(user)])) {
    merged[role] = { ...defaults[role], ...user[role] };
  }
  return merged;
}
