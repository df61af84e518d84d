import { join } from 'node:path';
import { ZodObject } from 'zod';
import { loadDefense } from '../defenses/defense-catalog.js';
import { checkBudgetPrices } from '../models/price-table.js';
import { checkRepeatedRoles } from '../models/role-catalog.js';
import type { Defense } from '../spec/defense.js';
import { ModelSpecError, PlanValidationError } from '../spec/errors.js';
import type { RoleBinding } from '../spec/model-spec.js';
import type { RunPlan } from '../spec/run-plan.js';
import { zodIssueText } from '../spec/zod-issue-text.js';
import { loadSuite } from '../suites/registry.js';
import type { SampleSpec, Suite } from '../suites/suite.js';
import { expandSamples } from './expand-samples.js';
import { hashRunDataset, type RunDataset, readsOutsideDataDir } from './hash-run-dataset.js';
import { MODEL_ROLES } from './role-registry.js';
import { selectShard } from './shard.js';

/** Everything a run needs except its models: the suite, its parsed options, data and samples. */
export type PreparedRun = {
  /** The plan it was prepared from. */
  plan: RunPlan;
  suite: Suite;
  options: unknown;
  dataDir: string;
  dataset: RunDataset;
  scenarios: unknown[];
  /** Every sample of the plan, before sharding (merge orders by it). */
  allSamples: SampleSpec[];
  /** The samples this run is responsible for (its shard, or all). */
  samples: SampleSpec[];
  defenses: Defense[];
  /**
   * The bindings to resolve as models (chat and embedding): the plan's, minus the reference seats
   * the suite fills itself, plus the roles its options bind (`optionBindings`).
   */
  modelBindings: RoleBinding[];
};

const SEAT_ROLE = /^agent(-[a-z0-9][a-z0-9-]*)?$/;
const REFERENCE_SPEC = /^reference:/;

/**
 * The plan's seat bindings for a suite that seats its models itself (`Suite.seats`, PAC): `agent`,
 * `agent-<id>`, in flag order, repeats and `reference:` specs included. Undefined for other suites.
 */
function seatsOf({ suite, plan }: { suite: Suite; plan: RunPlan }): RoleBinding[] | undefined {
  if (suite.seats !== true) return undefined;
  return plan.models.filter((binding) => SEAT_ROLE.test(binding.role));
}

/**
 * Parses suite options against the suite's schema. Unknown keys are rejected (a typo in
 * `--set` must not be silently ignored), and zod's issues become one readable message.
 */
/**
 * The raw suite options a plan runs with: under `--fidelity upstream` the suite's
 * `upstreamOptions`, with the plan's own options (`--set`, the config, suite flags) over them, so
 * an explicit option wins; otherwise the plan's options alone.
 */
export function planSuiteOptions({
  suite,
  plan,
}: {
  suite: Suite;
  plan: Pick<RunPlan, 'suiteOptions' | 'fidelity'>;
}): Record<string, unknown> {
  return plan.fidelity === 'upstream' ? { ...suite.upstreamOptions, ...plan.suiteOptions } : plan.suiteOptions;
}

/**
 * The options a plan gives that contradict `--fidelity upstream` (an upstream option set to
 * another value), as `key=value` texts: such a run is not upstream-exact. Empty otherwise.
 */
export function fidelityOverrides({
  suite,
  plan,
}: {
  suite: Suite;
  plan: Pick<RunPlan, 'suiteOptions' | 'fidelity'>;
}): string[] {
  if (plan.fidelity !== 'upstream') return [];
  return Object.entries(suite.upstreamOptions ?? {}).flatMap(([key, upstream]) => {
    const given = plan.suiteOptions[key];
    return given === undefined || JSON.stringify(given) === JSON.stringify(upstream)
      ? []
      : [`${key}=${typeof given === 'string' ? given : JSON.stringify(given)} (upstream: ${String(upstream)})`];
  });
}

export function parseSuiteOptions({ suite, raw }: { suite: Suite; raw: Record<string, unknown> }): unknown {
  const schema = suite.options;
  if (schema instanceof ZodObject) {
    const known = Object.keys(schema.shape);
    const unknown = Object.keys(raw).filter((key) => !known.includes(key));
    if (unknown.length > 0) {
      throw new PlanValidationError(
        `unknown option${unknown.length > 1 ? 's' : ''} ${unknown.map((key) => `'${key}'`).join(', ')} for suite ${suite.id}; its options are: ${known.join(', ') || '(none)'}`,
      );
    }
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((issue) => {
        const key = issue.path.join('.');
        const flag = suite.flags?.find((candidate) => candidate.key === key)?.flag;
        return `${key || 'options'}: ${zodIssueText({ issue, input: raw })}${key ? ` (set it with ${flag ? `${flag} or ` : ''}--set ${key}=…)` : ''}`;
      })
      .join('; ');
    throw new PlanValidationError(`invalid options for suite ${suite.id}: ${problems}`);
  }
  return parsed.data;
}

/** Whether the suite's options schema declares `key` (so `--set key=…` is accepted). */
function hasOption({ suite, key }: { suite: Suite; key: string }): boolean {
  return suite.options instanceof ZodObject && key in suite.options.shape;
}

/**
 * The bindings a suite's options give: an option named after an embedding role the suite uses
 * (PrivacyBench's `--set embedder=hashing:384`) binds that role to its spec, so the calls go
 * through the run's middleware (cache, usage, retry, rate limit, `embedding-call` events) exactly
 * as with `--model embedder=<spec>`. Giving both for one role is a user error (`checkRoles`).
 */
export function optionBindings({ suite, options }: { suite: Suite; options: unknown }): RoleBinding[] {
  if (typeof options !== 'object' || options === null) return [];
  const { required, optional } = suite.roles(options);
  return [...new Set([...required, ...optional])].flatMap((role) => {
    const spec = (options as Record<string, unknown>)[role];
    return MODEL_ROLES.find(role)?.kind === 'embedding' && hasOption({ suite, key: role }) && typeof spec === 'string'
      ? [{ role, spec }]
      : [];
  });
}

/**
 * Checks that every role the suite needs is bound (directly or through its fallbacks). Unknown
 * roles, and then every missing role, are reported in one message each: a user fixing a plan
 * learns all of it in one attempt, not one role per attempt.
 */
export function checkRoles({ suite, options, plan }: { suite: Suite; options: unknown; plan: RunPlan }): void {
  const bound = new Set(plan.models.map((binding) => binding.role));
  const unknown = [...bound].filter((role) => !MODEL_ROLES.isKnown(role));
  if (unknown.length > 0) {
    throw new ModelSpecError(
      `unknown role${unknown.length > 1 ? 's' : ''} ${unknown.map((role) => `"${role}" in --model ${role}=…`).join(', ')}; known roles: ${MODEL_ROLES.names().join(', ')}`,
    );
  }
  // Seat roles are left to resolveModelRoles: a suite that seats its models (PAC) takes repeated seat bindings.
  checkRepeatedRoles({ roles: MODEL_ROLES, bindings: plan.models.filter((binding) => !SEAT_ROLE.test(binding.role)) });
  for (const binding of optionBindings({ suite, options })) {
    // Two bindings for one role are refused like a repeated --model: neither silently wins.
    const given = plan.models.find((model) => model.role === binding.role);
    if (given !== undefined) {
      throw new ModelSpecError(
        `role "${binding.role}" is given twice, by --set ${binding.role}=${binding.spec} and --model ${binding.role}=${given.spec}: give one of them`,
      );
    }
    bound.add(binding.role);
  }
  const { required } = suite.roles(options);
  const missing = required.filter(
    (role) => !bound.has(role) && !MODEL_ROLES.fallbacks(role).some((fallback) => bound.has(fallback)),
  );
  if (missing.length === 0) return;
  const howTo = (role: string) => {
    const definition = MODEL_ROLES.find(role);
    if (definition?.bindHint !== undefined) {
      const offline = definition.offlineSpec;
      return `${definition.bindHint}${offline !== undefined && hasOption({ suite, key: role }) ? `, or --set ${role}=${offline}` : ''}`;
    }
    return role === 'agent' ? 'add --model <provider:model>' : `add --model ${role}=<provider:model>`;
  };
  const what = (role: string) => MODEL_ROLES.find(role)?.purpose ?? `a model for role '${role}'`;
  if (missing.length === 1) {
    const [role] = missing as [string];
    const chat = MODEL_ROLES.find(role)?.kind !== 'embedding';
    throw new PlanValidationError(
      `suite ${suite.id} needs ${what(role)}: ${howTo(role)}${chat ? ' (see `confidant list providers`)' : ''}`,
    );
  }
  throw new PlanValidationError(
    `suite ${suite.id} needs ${missing.length} more roles:\n${missing.map((role) => `  ${role}: ${howTo(role)}`).join('\n')}\n(see \`confidant list providers\` for model specs)`,
  );
}

/** A task is answered by at most one responder defense (role chain, 1-2-3 check). */
function checkResponders(defenses: readonly Defense[]): void {
  const responders = defenses.filter((defense) => defense.kind === 'responder');
  if (responders.length > 1) {
    throw new PlanValidationError(
      `at most one responder defense can answer a prompt, got ${responders.map((defense) => defense.id).join(', ')}: keep one of them`,
    );
  }
}

/** The inputs of `prepareRun`. */
export type PrepareRunOptions = {
  plan: RunPlan;
  /** Where the suite's dataset folder (`<dataDir>/<suite.dataset>/`) is read from. */
  dataDir: string;
  /** The suite as a value (one outside the registry); by default `plan.suite` is looked up in the registry. */
  suite?: Suite;
  /**
   * Defenses as values, in plan order, instead of resolving `plan.defenses` from the registry (a
   * library user's own defense); their ids must be the plan's.
   */
  defenses?: readonly Defense[];
};

/**
 * Resolves a plan into a runnable shape: finds the suite, parses its options, checks roles,
 * resolves defenses, loads and hashes the dataset, and expands (and shards) the samples. A
 * `--max-cost` over a model with no known price is a user error naming the `--price` to add.
 */
export async function prepareRun({
  plan,
  dataDir,
  suite: given,
  defenses: givenDefenses,
}: PrepareRunOptions): Promise<PreparedRun> {
  const suite = given ?? (await loadSuite(plan.suite));
  if (suite.id !== plan.suite) {
    throw new PlanValidationError(`the plan names suite ${plan.suite} but was given suite ${suite.id}`);
  }
  const seats = seatsOf({ suite, plan });
  const raw = planSuiteOptions({ suite, plan });
  const options = parseSuiteOptions({ suite, raw: seats ? { ...raw, seats } : raw });
  const byOption = optionBindings({ suite, options });
  // checkRoles refuses a role bound both by an option and by --model, so the two lists are disjoint.
  checkRoles({ suite, options, plan });
  const modelBindings = [
    ...plan.models.filter((binding) => !(seats && SEAT_ROLE.test(binding.role) && REFERENCE_SPEC.test(binding.spec))),
    ...byOption,
  ];
  const defenses: Defense[] = [];
  if (givenDefenses === undefined || givenDefenses.length === 0) {
    // One at a time, in plan order, so the first bad id is the one reported.
    for (const id of plan.defenses.length > 0 ? plan.defenses : ['vanilla']) {
      defenses.push(await loadDefense({ id, taskKind: suite.taskKind }));
    }
  } else defenses.push(...givenDefenses);
  checkResponders(defenses);
  const files = suite.dataset.files({ dataDir, options });
  const hash = () => hashRunDataset({ dataDir, name: suite.dataset.name, files });
  // Data outside the data dir is hashed after the suite loaded it, so the suite's own error comes first.
  const external = readsOutsideDataDir({ dataDir, name: suite.dataset.name, files });
  const early = external ? undefined : await hash();
  const warnings: string[] = [];
  const scenarios = await suite.dataset.load({ dataDir, options, warn: (message) => warnings.push(message) });
  const dataset = early ?? (await hash());
  if (warnings.length > 0) dataset.warnings = warnings;
  const allSamples = expandSamples({
    suite,
    scenarios,
    options,
    epochs: plan.epochs,
    seed: plan.seed,
    ...(plan.limit === undefined ? {} : { limit: plan.limit }),
    ...(plan.sampleIds === undefined ? {} : { sampleIds: plan.sampleIds }),
  });
  const samples = plan.shard
    ? selectShard({ samples: allSamples, index: plan.shard.index, count: plan.shard.count })
    : allSamples;
  if (samples.length === 0) {
    throw emptyPlanError({ suite, plan, dataDir, scenarios: scenarios.length, allSamples: allSamples.length });
  }
  // A cost budget over a model without a price could never stop the run: refuse it before any call.
  checkBudgetPrices({ bindings: modelBindings, prices: plan.prices, maxCostUsd: plan.maxCostUsd });
  return {
    plan,
    suite,
    options,
    dataDir,
    dataset,
    scenarios,
    allSamples,
    samples,
    defenses,
    modelBindings,
  };
}

/**
 * Says which input of a plan produced no sample, and why, before anything runs: the data (no
 * scenario loaded), the suite's variants (scenarios, but no sample for these options) or the shard.
 */
function emptyPlanError({
  suite,
  plan,
  dataDir,
  scenarios,
  allSamples,
}: {
  suite: Suite;
  plan: RunPlan;
  dataDir: string;
  scenarios: number;
  allSamples: number;
}): PlanValidationError {
  const options =
    Object.keys(plan.suiteOptions).length === 0 ? '' : ` with options ${JSON.stringify(plan.suiteOptions)}`;
  if (scenarios === 0) {
    return new PlanValidationError(
      `nothing to run: suite ${suite.id} loaded no scenario from ${join(dataDir, suite.dataset.name)}${options}; check that the data is there in the layout the suite expects (\`confidant data verify ${suite.dataset.name}\`) and that the options select something`,
    );
  }
  if (allSamples === 0) {
    return new PlanValidationError(
      `nothing to run: suite ${suite.id} loaded ${scenarios} scenario(s) but none gives a sample${options}; change the options that choose variants (see \`confidant list suites\`)`,
    );
  }
  const shard = plan.shard;
  return new PlanValidationError(
    `nothing to run: shard ${shard?.index}/${shard?.count} has no sample, the plan has only ${allSamples}; use at most ${allSamples} shard(s)`,
  );
}
