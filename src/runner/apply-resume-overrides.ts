import { parseModelSpec, parseRoleBinding, redactEndpoint } from '../models/parse-model-spec.js';
import { PlanValidationError } from '../spec/errors.js';
import type { PriceOverrides } from '../spec/model-price.js';
import type { RoleBinding } from '../spec/model-spec.js';
import { type RunPlan, runPlanSchema } from '../spec/run-plan.js';
import type { RunResume } from '../spec/run-record.js';
import { zodIssueText } from '../spec/zod-issue-text.js';

/**
 * What `resume` may change about a run: how (not what) it runs. Budgets bound one invocation;
 * the rest changes execution only, so none of it touches the plan's identity (`planHash`).
 * Anything else (suite, options, models, defenses, epochs, selection, seed) is not a field here:
 * a different plan is a new run.
 */
export type ResumeOverrides = {
  concurrency?: number | undefined;
  maxConnections?: number | undefined;
  maxRetries?: number | undefined;
  requestTimeoutMs?: number | undefined;
  maxRetryAfterMs?: number | undefined;
  maxCostUsd?: number | undefined;
  maxTokens?: number | undefined;
  failFast?: number | undefined;
  maxErrorRate?: number | undefined;
  /** `false` stops reading the response cache; `true` changes nothing. */
  cache?: boolean | undefined;
  /**
   * Role bindings as `role=provider:model@<base URL>` texts (as for `--model`), each moving a bound
   * role to a new base URL of the same provider and model.
   */
  models?: readonly string[] | undefined;
  /** Prices by model, merged over the plan's. */
  prices?: PriceOverrides | undefined;
};

const sameModel = (a: string, b: string) => {
  const left = parseModelSpec(a);
  const right = parseModelSpec(b);
  return left.provider === right.provider && left.modelId === right.modelId;
};

const endpointsOf = (spec: string) => parseModelSpec(spec).baseURLs.map(redactEndpoint);

/** Replaces a binding's spec by one with the same provider and model id; anything else is refused. */
function overrideModel({ models, text }: { models: RoleBinding[]; text: string }): {
  models: RoleBinding[];
  role: string;
  from: string[];
  to: string[];
} {
  const binding = parseRoleBinding(text);
  const sameRole = models.filter((candidate) => candidate.role === binding.role);
  if (sameRole.length === 0) {
    throw new PlanValidationError(
      `resume cannot add role '${binding.role}' (--model ${text}): this run binds ${[...new Set(models.map((candidate) => candidate.role))].join(', ') || 'no roles'}; start a new run to change its models`,
    );
  }
  const matches = sameRole.filter((candidate) => sameModel(candidate.spec, binding.spec));
  const wanted = parseModelSpec(binding.spec);
  if (matches.length === 0) {
    const had = sameRole.map((candidate) => {
      const spec = parseModelSpec(candidate.spec);
      return `${spec.provider}:${spec.modelId}`;
    });
    throw new PlanValidationError(
      `resume can move role '${binding.role}' to a new base URL but not change its model: the run uses ${had.join(', ')}, not ${wanted.provider}:${wanted.modelId}. A different model measures something else: start a new run`,
    );
  }
  if (matches.length > 1) {
    throw new PlanValidationError(
      `role '${binding.role}' binds ${wanted.provider}:${wanted.modelId} ${matches.length} times, so --model ${text} is ambiguous on resume; start a new run to move them`,
    );
  }
  const [target] = matches as [RoleBinding];
  return {
    models: models.map((candidate) => (candidate === target ? { role: binding.role, spec: binding.spec } : candidate)),
    role: binding.role,
    from: endpointsOf(target.spec),
    to: endpointsOf(binding.spec),
  };
}

/**
 * The plan `resume` runs: the header's, with the safe overrides applied (concurrency, connections,
 * retries, budgets, fail-fast thresholds, prices (merged by model), cache reads, base URLs of the same models), and what
 * changed, for the header's `resumes` log. Budgets bound one invocation and the rest only change how
 * the run executes, so none of it touches the plan's identity (`planHash` stays).
 */
export function applyResumeOverrides({ plan, overrides }: { plan: RunPlan; overrides: ResumeOverrides }): {
  plan: RunPlan;
  changed: RunResume['changed'];
} {
  const flags = overrides;
  const changed: RunResume['changed'] = {};
  const next: RunPlan = { ...plan };
  const set = <K extends keyof RunPlan>(key: K, value: RunPlan[K] | undefined) => {
    if (value === undefined || value === plan[key]) return;
    changed[key] = { from: plan[key] ?? null, to: value };
    next[key] = value;
  };
  set('concurrency', flags.concurrency);
  set('maxConnections', flags.maxConnections);
  set('maxRetries', flags.maxRetries);
  set('requestTimeoutMs', flags.requestTimeoutMs);
  set('maxRetryAfterMs', flags.maxRetryAfterMs);
  set('maxCostUsd', flags.maxCostUsd);
  set('maxTokens', flags.maxTokens);
  set('failFast', flags.failFast);
  set('maxErrorRate', flags.maxErrorRate);
  if (flags.cache === false) set('cache', false);
  if (flags.prices !== undefined) {
    const prices = { ...plan.prices, ...flags.prices };
    if (JSON.stringify(prices) !== JSON.stringify(plan.prices ?? {})) {
      changed.prices = { from: plan.prices ?? null, to: prices };
      next.prices = prices;
    }
  }
  let models = plan.models;
  for (const text of flags.models ?? []) {
    const override = overrideModel({ models, text });
    models = override.models;
    if (override.from.join(',') !== override.to.join(',')) {
      changed[`models.${override.role}`] = { from: override.from, to: override.to };
    }
  }
  if (models !== plan.models) next.models = models;
  const parsed = runPlanSchema.safeParse(next);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.')}: ${zodIssueText({ issue, input: next })}`,
    );
    throw new PlanValidationError(`invalid resume settings: ${problems.join('; ')}`);
  }
  return { plan: parsed.data, changed };
}

/** The overrides as one line for the operator, e.g. `--concurrency 8 (was 4)`. */
export function describeResumeChanges(changed: RunResume['changed']): string {
  return Object.entries(changed)
    .map(([key, { from, to }]) => {
      const show = (value: unknown) =>
        Array.isArray(value)
          ? value.join(',') || '(default)'
          : typeof value === 'object' && value !== null
            ? JSON.stringify(value)
            : String(value);
      return `${key} ${show(to)} (was ${show(from)})`;
    })
    .join('; ');
}
