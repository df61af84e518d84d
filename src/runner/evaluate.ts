import type { AdaptiveLimiter } from '../models/adaptive-limiter.js';
import type { OpenAiCompatibleClient, ProviderDefinition } from '../models/provider-registry.js';
import type { ResolvedModelRoles } from '../models/resolve-model-roles.js';
import type { Defense } from '../spec/defense.js';
import { PlanValidationError } from '../spec/errors.js';
import type { PriceOverrides } from '../spec/model-price.js';
import type { RoleBinding } from '../spec/model-spec.js';
import { type RunPlan, runPlanSchema } from '../spec/run-plan.js';
import type { RunHeader, RunInvocation, RunSummary } from '../spec/run-record.js';
import type { RunStore } from '../spec/run-store.js';
import { createRunId } from '../store/create-run-id.js';
import { InMemoryRunStore } from '../store/in-memory-run-store.js';
import type { RunLock } from '../store/run-lock.js';
import type { Suite } from '../suites/suite.js';
import { buildRunHeader } from './build-run-header.js';
import { createRunStore } from './create-run-store.js';
import type { FailFastStop } from './fail-fast.js';
import { planHash } from './plan-hash.js';
import { type PreparedRun, prepareRun } from './prepare-run.js';
import { modelSourcesOf, resolvePlanModels } from './resolve-plan-models.js';
import { type RunProgress, type RunStopReason, runEvaluation } from './run-evaluation.js';
import { whileLocked } from './while-locked.js';

/** What a run reports once its store holds the header, before the first sample starts. */
export type RunStart = {
  store: RunStore;
  header: RunHeader;
  prepared: PreparedRun;
};

/** How a run executes, shared by `evaluate`, `evaluatePlan` and `resume`. */
export type RunSessionOptions = {
  /** Where API keys are read from (provider registry variable names). Default: none. */
  env?: Record<string, string | undefined>;
  /** Providers the bindings may name besides the built-in ones (e.g. one wrapping an AI SDK model). */
  providers?: readonly ProviderDefinition[];
  /** The client of OpenAI-compatible providers (vLLM, Ollama, `openai-compatible`); default `lean`. */
  openAiCompatibleClient?: OpenAiCompatibleClient;
  /** Aborting stops new samples; those in flight settle and the run stays resumable. */
  signal?: AbortSignal;
  /** Live numbers: at the start, after every model call and after every sample. */
  onProgress?: (progress: RunProgress) => void;
  /**
   * Called once the plan is prepared (suite, options, data and samples checked), before any model
   * is resolved or any file written; a throw ends the call (the CLI prints warnings and runs its
   * pre-flight check here).
   */
  beforeRun?: (prepared: PreparedRun) => void | Promise<void>;
  /** Called once the store holds the header, before the first sample. */
  onStart?: (start: RunStart) => void;
  /** Named in a run directory's lock, for a second writer's message. Default `confidant run`. */
  lockCommand?: string;
  /**
   * Per-endpoint limiters shared with other runs in this process (a sweep's cells), so that
   * `maxConnections` bounds each endpoint across all of them. Default: the run's own.
   */
  limiters?: Map<string, AdaptiveLimiter>;
  /**
   * Check every event and record against the run format as it is built (a debug aid; the CLI's
   * `CONFIDANT_VALIDATE=1`). Default false: they are built in typed code, and checking each one
   * cost a sixth of a call's CPU. What comes from outside (scores from suite code, files read back,
   * provider responses) is checked either way.
   */
  validate?: boolean;
};

/** What `evaluate`, `evaluatePlan` and `resume` return; `summary` is also in the store. */
export type EvaluateResult = {
  summary: RunSummary;
  /** The run's store: its header, records and summary. */
  store: RunStore;
  header: RunHeader;
  suite: Suite;
  /** Why the run ended before every sample had a record (it can be resumed). */
  stopped?: RunStopReason;
  /** Why fail-fast stopped the run (with `stopped: 'fail-fast'`). */
  failFast?: FailFastStop;
  /** How many records this call appended. */
  executed: number;
};

/** The inputs of `evaluatePlan`: a complete plan plus where and how it runs. */
export type EvaluatePlanOptions = RunSessionOptions & {
  plan: RunPlan;
  /** The suite as a value; by default `plan.suite` is looked up in the registry. */
  suite?: Suite;
  /** Defenses as values (their ids are `plan.defenses`); by default resolved from the registry. */
  defenses?: readonly Defense[];
  /** Where `<dataDir>/<suite.dataset>/` is read; suites with starter data need none. */
  dataDir: string;
  /** Models already resolved (the caller closes them); by default `plan.models` are resolved here. */
  models?: ResolvedModelRoles;
  /** A new run directory is created under `outDir` (locked while the run writes it)... */
  outDir?: string;
  /** ...or the records go to this store; with neither, to an in-memory store. */
  store?: RunStore;
  /** The response cache directory; `null` (default): no cache. `plan.cache` says whether it is read. */
  cacheDir?: string | null;
  /** How the run was invoked, stored in the header so `resume` needs nothing else. */
  invocation?: RunInvocation;
};

/**
 * Runs a plan from the start: prepares it (`prepareRun`), resolves its models, writes the header
 * to a new store and runs every sample (`runEvaluation`), then returns the summary and the store.
 * Models this call resolved are closed and a run directory's lock is released when it returns or
 * throws.
 */
export async function evaluatePlan(options: EvaluatePlanOptions): Promise<EvaluateResult> {
  const { plan } = options;
  const prepared = await prepareRun({
    plan,
    dataDir: options.dataDir,
    ...(options.suite === undefined ? {} : { suite: options.suite }),
    ...(options.defenses === undefined ? {} : { defenses: options.defenses }),
  });
  await options.beforeRun?.(prepared);
  const models =
    options.models ??
    (await resolvePlanModels({
      plan,
      prepared,
      ...modelSourcesOf(options),
      cache: { dir: options.cacheDir ?? null, reads: plan.cache },
    }));
  try {
    const opened = await openStore({ options, prepared, models });
    options.onStart?.({ store: opened.store, header: opened.header, prepared });
    const work = () => runPrepared({ prepared, plan, store: opened.store, models, options, retryErrors: false });
    return opened.lock === undefined ? await work() : await whileLocked({ lock: opened.lock, work });
  } finally {
    if (options.models === undefined) models.close();
  }
}

/** A new store holding the run's header: a locked run directory, the given store or an in-memory one. */
async function openStore({
  options,
  prepared,
  models,
}: {
  options: EvaluatePlanOptions;
  prepared: PreparedRun;
  models: ResolvedModelRoles;
}): Promise<{ store: RunStore; header: RunHeader; lock?: RunLock }> {
  const { plan } = options;
  const invocation = options.invocation === undefined ? {} : { invocation: options.invocation };
  if (options.outDir !== undefined) {
    if (options.store !== undefined) throw new PlanValidationError('give a run either an outDir or a store, not both');
    return createRunStore({
      outDir: options.outDir,
      plan,
      prepared,
      models: models.describe(),
      ...invocation,
      ...(options.lockCommand === undefined ? {} : { command: options.lockCommand }),
    });
  }
  const now = new Date();
  const store = options.store ?? new InMemoryRunStore(prepared.suite.id);
  const runId = createRunId({ now, suite: prepared.suite.id, planHash: planHash(plan) });
  const header = buildRunHeader({ runId, now, plan, prepared, models: models.describe(), ...invocation });
  await store.writeHeader(header);
  return { store, header };
}

/** Runs the prepared samples into a store that holds the header (shared by `evaluatePlan` and `resume`). */
export async function runPrepared({
  prepared,
  plan,
  store,
  models,
  options,
  retryErrors,
}: {
  prepared: PreparedRun;
  plan: RunPlan;
  store: RunStore;
  models: ResolvedModelRoles;
  options: Pick<RunSessionOptions, 'signal' | 'onProgress' | 'validate'>;
  retryErrors: boolean;
}): Promise<EvaluateResult> {
  const result = await runEvaluation({
    suite: prepared.suite,
    options: prepared.options,
    scenarios: prepared.scenarios,
    samples: prepared.samples,
    store,
    models: models.factory,
    defenses: prepared.defenses,
    concurrency: plan.concurrency,
    retryErrors,
    failFast: { consecutive: plan.failFast, maxErrorRate: plan.maxErrorRate },
    validate: options.validate === true,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
  });
  return { ...result, store, header: await store.readHeader(), suite: prepared.suite };
}

/** The inputs of `evaluate`, modelled on Inspect's `eval()`: what to run, on what, where and how. */
export type EvaluateOptions = RunSessionOptions & {
  /** A registered suite's id, or a suite value (e.g. from `defineSuite`). */
  suite: Suite | string;
  /** The suite's options (validated by its schema; unknown keys are refused). */
  options?: Record<string, unknown>;
  /**
   * Role bindings (`{ role: 'agent', spec: 'openai:gpt-4o' }`, resolved here with keys from `env`)
   * or model roles already resolved (`resolveModelRoles`; the caller closes them).
   */
  models?: readonly RoleBinding[] | ResolvedModelRoles;
  /** Per-role generation settings (`{ judge: { temperature: 0 } }`) over the suite's defaults. */
  modelSettings?: Record<string, Record<string, unknown>>;
  /** Defense ids from the registry, or defense values. Default: `vanilla`. */
  defenses?: ReadonlyArray<string | Defense>;
  /** A new run directory goes under `outDir`; else the records go to `store`, else to memory. */
  outDir?: string;
  store?: RunStore;
  /** The data directory (`<dataDir>/<suite.dataset>/`); suites with starter data need none. */
  dataDir?: string;
  epochs?: number;
  /** Run the first `limit` scenarios only. */
  limit?: number;
  /** Run only these sample ids. */
  sampleIds?: readonly string[];
  seed?: number;
  /** Run shard `index` of `count` (1-based); `mergeRuns` joins the shards. */
  shard?: { index: number; count: number };
  /** Samples in flight at once (default 4). */
  concurrency?: number;
  /** Stop cleanly (resumable) once the run's calls cost this much or used this many tokens. */
  budget?: { maxCostUsd?: number; maxTokens?: number };
  /** USD per million tokens by model, for cost and `budget.maxCostUsd`. */
  prices?: PriceOverrides;
  /** Retries per failed model call (default 5). */
  maxRetries?: number;
  /** Client timeout of one model request in milliseconds (default 10 min). */
  requestTimeoutMs?: number;
  /** The longest `Retry-After` a retry obeys, in milliseconds (default 2 min). */
  maxRetryAfterMs?: number;
  /** Open requests per endpoint (default 8). */
  maxConnections?: number;
  /** Stop after this many samples in a row failed with the same provider cause (default 5; 0: never). */
  failFast?: number;
  /** Stop once more than this share of the samples failed (default 0.2). */
  maxErrorRate?: number;
  /** A response cache directory, read unless `reads` is false. Default: no cache. */
  cache?: { dir: string; reads?: boolean };
  /** Stored in the header; `resume` reads the data and cache directories from it. */
  invocation?: RunInvocation;
};

/**
 * Evaluates a suite, modelled on Inspect's `eval()`: builds the run plan from the options,
 * prepares it (suite options, roles, defenses, data, samples), resolves the models, writes a run
 * header and runs every sample, then returns `{ summary, store }` (with the header and why the
 * run stopped early, if it did). A run directory (`outDir`) can be continued with `resume`.
 *
 * @example
 * const { summary } = await evaluate({
 *   suite: 'toy-leak',
 *   models: [{ role: 'agent', spec: 'mock:echo' }, { role: 'judge', spec: 'mock:fixed/no' }],
 * });
 */
export async function evaluate(options: EvaluateOptions): Promise<EvaluateResult> {
  const suite = typeof options.suite === 'string' ? undefined : options.suite;
  const defenses = (options.defenses ?? []).filter((defense): defense is Defense => typeof defense !== 'string');
  if (defenses.length > 0 && defenses.length !== options.defenses?.length) {
    throw new PlanValidationError('give defenses either all as ids or all as values');
  }
  const resolved = options.models !== undefined && !isBindingList(options.models) ? options.models : undefined;
  const plan = planOf({ options, resolved });
  return evaluatePlan({
    plan,
    dataDir: options.dataDir ?? '.',
    ...(suite === undefined ? {} : { suite }),
    ...(defenses.length === 0 ? {} : { defenses }),
    ...(resolved === undefined ? {} : { models: resolved }),
    ...(options.cache === undefined ? {} : { cacheDir: options.cache.dir }),
    ...sessionOf(options),
    ...(options.outDir === undefined ? {} : { outDir: options.outDir }),
    ...(options.store === undefined ? {} : { store: options.store }),
    ...(options.invocation === undefined ? {} : { invocation: options.invocation }),
  });
}

function isBindingList(models: readonly RoleBinding[] | ResolvedModelRoles): models is readonly RoleBinding[] {
  return Array.isArray(models);
}

// Every key of RunSessionOptions, checked by the compiler both ways, so a new session option
// cannot be dropped on the way from evaluate() to evaluatePlan() (limiters once was).
const SESSION_KEYS = {
  env: true,
  providers: true,
  openAiCompatibleClient: true,
  signal: true,
  onProgress: true,
  beforeRun: true,
  onStart: true,
  lockCommand: true,
  limiters: true,
  validate: true,
} as const satisfies Record<keyof RunSessionOptions, true>;

/** The session options of `options`, without undefined keys. */
export function sessionOf(options: RunSessionOptions): RunSessionOptions {
  const session: RunSessionOptions = {};
  for (const key of Object.keys(SESSION_KEYS) as Array<keyof RunSessionOptions>) {
    if (options[key] !== undefined) Object.assign(session, { [key]: options[key] });
  }
  return session;
}

/** The run plan `evaluate`'s options describe (validated like a `--config` plan). */
function planOf({
  options,
  resolved,
}: {
  options: EvaluateOptions;
  resolved: ResolvedModelRoles | undefined;
}): RunPlan {
  const models =
    resolved === undefined
      ? (options.models as readonly RoleBinding[] | undefined)
      : Object.entries(resolved.describe()).flatMap(([role, described]) =>
          described.map((model) => ({ role, spec: `${model.provider}:${model.modelId}` })),
        );
  const parsed = runPlanSchema.safeParse({
    suite: typeof options.suite === 'string' ? options.suite : options.suite.id,
    suiteOptions: options.options,
    models,
    modelSettings: options.modelSettings,
    defenses: options.defenses?.map((defense) => (typeof defense === 'string' ? defense : defense.id)),
    epochs: options.epochs,
    limit: options.limit,
    sampleIds: options.sampleIds,
    seed: options.seed,
    concurrency: options.concurrency,
    maxConnections: options.maxConnections,
    maxRetries: options.maxRetries,
    requestTimeoutMs: options.requestTimeoutMs,
    maxRetryAfterMs: options.maxRetryAfterMs,
    cache: options.cache !== undefined && options.cache.reads !== false,
    maxCostUsd: options.budget?.maxCostUsd,
    maxTokens: options.budget?.maxTokens,
    failFast: options.failFast,
    maxErrorRate: options.maxErrorRate,
    shard: options.shard,
    prices: options.prices,
  });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'plan'}: ${issue.message}`);
    throw new PlanValidationError(`invalid evaluation options: ${problems.join('; ')}`);
  }
  return parsed.data;
}
