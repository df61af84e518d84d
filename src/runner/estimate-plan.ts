import { parseModelSpec } from '../models/parse-model-spec.js';
import { type PriceTable, priceOfSpec } from '../models/price-table.js';
import type { Defense } from '../spec/defense.js';
import type { ModelPrice } from '../spec/model-price.js';
import type { RoleBinding } from '../spec/model-spec.js';
import { type CallCount, exactly, type PlannedCalls, sumCounts, type TokenRange } from '../suites/call-pattern.js';
import type { SampleSpec, Suite } from '../suites/suite.js';
import { MODEL_ROLES } from './role-registry.js';

/** Input tokens assumed per call when a suite gives no estimate. */
export const ASSUMED_INPUT_TOKENS: TokenRange = { min: 100, max: 4000 };
/** Largest reply assumed per call when neither the suite nor the role's settings set `maxOutputTokens`. */
export const ASSUMED_MAX_OUTPUT_TOKENS = 1000;

/** USD of a number of calls: the low and high bounds, and the range for the expected count. */
export type CostRange = {
  /** Fewest calls, smallest prompts, one-token replies. */
  low: number;
  /** Expected calls, smallest to largest prompts and replies; `null` when the count has no expectation. */
  expected: { low: number; high: number } | null;
  /** Most calls, largest prompts and replies; `null` when the call count has no upper bound. */
  high: number | null;
};

/** The estimate of one role on one model. */
export type RoleCallEstimate = {
  role: string;
  /** `provider:modelId` of the model that answers (base URLs left out), or `null` when nothing is bound. */
  model: string | null;
  calls: CallCount;
  /** Input tokens per call, over every kind of call of this row. */
  inputTokens: TokenRange;
  /** True when some calls had no suite estimate and {@link ASSUMED_INPUT_TOKENS} stood in. */
  inputAssumed: boolean;
  outputTokens: TokenRange;
  /** True when some calls had no known `maxOutputTokens` and {@link ASSUMED_MAX_OUTPUT_TOKENS} stood in. */
  outputAssumed: boolean;
  price: ModelPrice | null;
  /** `null` when the price is unknown. */
  cost: CostRange | null;
};

/** What `estimatePlan` returns. */
export type PlanEstimate = {
  /** False when the suite declares no call pattern: nothing below is known. */
  declared: boolean;
  /** One row per role and model, in the order the pattern first names them. */
  rows: RoleCallEstimate[];
  calls: CallCount;
  /** `null` when some row's price is unknown. */
  cost: CostRange | null;
};

/** Options of {@link estimatePlan}. */
export type EstimatePlanOptions = {
  suite: Suite;
  options: unknown;
  scenarios: readonly unknown[];
  samples: readonly SampleSpec[];
  defenses: readonly Defense[];
  /** The bindings the run resolves (reference seats left out). */
  bindings: readonly RoleBinding[];
  /** Settings per role as the run applies them (suite defaults under the user's). */
  settings: Record<string, Record<string, unknown>>;
  prices: PriceTable;
};

type Row = {
  role: string;
  spec: string | null;
  calls: CallCount[];
  input: TokenRange[];
  output: TokenRange[];
  inputAssumed: boolean;
  outputAssumed: boolean;
  cost: CostRange[];
};

const addCost = (a: CostRange, b: CostRange): CostRange => ({
  low: a.low + b.low,
  expected:
    a.expected === null || b.expected === null
      ? null
      : { low: a.expected.low + b.expected.low, high: a.expected.high + b.expected.high },
  high: a.high === null || b.high === null ? null : a.high + b.high,
});

const ZERO_COST: CostRange = { low: 0, expected: { low: 0, high: 0 }, high: 0 };

/** USD of `count` calls of `input` and `output` tokens each at `price`. */
function costOf({
  count,
  input,
  output,
  price,
}: {
  count: CallCount;
  input: TokenRange;
  output: TokenRange;
  price: ModelPrice;
}): CostRange {
  const usd = (inputTokens: number, outputTokens: number) =>
    (inputTokens * price.inputPerMillionUsd + outputTokens * price.outputPerMillionUsd) / 1_000_000;
  const small = usd(input.min, output.min);
  const large = usd(input.max, output.max);
  return {
    low: count.min * small,
    expected: count.expected === null ? null : { low: count.expected * small, high: count.expected * large },
    high: count.max === null ? null : count.max * large,
  };
}

/**
 * Estimates the model calls and cost of a prepared plan without calling a model: each sample's
 * `suite.callPattern` (calls by role with ranges), with `answer` calls expanded through the
 * responder defense (`chain:G>V>R` makes a generator, a verifier and a refiner call per answer,
 * each prompt carrying the earlier stages' outputs), summed per role and model and priced.
 *
 * Token assumptions, stated once: a suite's input estimate counts 4 characters a token; without
 * one a call is assumed to take 100–4,000 input tokens; a reply is 1 token up to the role's
 * `maxOutputTokens` (from the suite's defaults or `--model-setting`), else up to 1,000. A role
 * bound to several models (an ensemble) is planned per model. Cached replies are not foreseen:
 * the estimate is what the plan costs from an empty cache.
 */
export function estimatePlan(options: EstimatePlanOptions): PlanEstimate {
  const { suite, defenses, settings, prices } = options;
  if (suite.callPattern === undefined) {
    return { declared: false, rows: [], calls: exactly(0), cost: null };
  }
  const bound = (role: string): string[] => {
    for (const candidate of [role, ...MODEL_ROLES.fallbacks(role)]) {
      const specs = options.bindings.filter((binding) => binding.role === candidate).map((binding) => binding.spec);
      if (specs.length > 0) return specs;
    }
    return [];
  };
  const outputMax = (role: string): number | undefined => {
    for (const candidate of [role, ...MODEL_ROLES.fallbacks(role)]) {
      const value = settings[candidate]?.maxOutputTokens;
      if (typeof value === 'number') return value;
    }
    return undefined;
  };
  const responder = defenses.find((defense) => defense.kind === 'responder');
  const scenarios = new Map(options.scenarios.map((scenario) => [suite.dataset.id(scenario), scenario]));
  const rows = new Map<string, Row>();

  const add = (entry: PlannedCalls) => {
    const given = entry.maxOutputTokens ?? outputMax(entry.role);
    const output: TokenRange = { min: 1, max: given ?? ASSUMED_MAX_OUTPUT_TOKENS };
    const input = entry.inputTokens ?? ASSUMED_INPUT_TOKENS;
    const specs: Array<string | null> = entry.spec !== undefined ? [entry.spec] : bound(entry.role);
    for (const spec of specs.length > 0 ? specs : [null]) {
      const key = `${entry.role}\u0000${spec ?? ''}`;
      let row = rows.get(key);
      if (row === undefined) {
        row = {
          role: entry.role,
          spec,
          calls: [],
          input: [],
          output: [],
          inputAssumed: false,
          outputAssumed: false,
          cost: [],
        };
        rows.set(key, row);
      }
      row.calls.push(entry.count);
      row.input.push(input);
      row.output.push(output);
      row.inputAssumed ||= entry.inputTokens === undefined;
      row.outputAssumed ||= given === undefined;
      const price = spec === null ? null : (priceOfSpec({ spec, prices }) ?? null);
      if (price !== null) row.cost.push(costOf({ count: entry.count, input, output, price }));
    }
  };

  for (const sample of options.samples) {
    const scenario = scenarios.get(sample.scenarioId);
    const planned = suite.callPattern({ sample, scenario, options: options.options, bound });
    for (const entry of planned) {
      if (!entry.answer || responder === undefined || responder.kind !== 'responder') {
        add(entry);
        continue;
      }
      const stages = responder.answerCalls ?? [{ role: 'agent', upstream: 0 }];
      for (const stage of stages) {
        const reply = outputMax(stage.role) ?? ASSUMED_MAX_OUTPUT_TOKENS;
        const base = entry.inputTokens ?? ASSUMED_INPUT_TOKENS;
        add({
          role: stage.role,
          count: entry.count,
          inputTokens: { min: base.min + stage.upstream, max: base.max + stage.upstream * reply },
        });
      }
    }
  }

  const estimates: RoleCallEstimate[] = [...rows.values()].map((row) => {
    const price = row.spec === null ? null : (priceOfSpec({ spec: row.spec, prices }) ?? null);
    return {
      role: row.role,
      model: row.spec === null ? null : modelLabel(row.spec),
      calls: sumCounts(row.calls),
      inputTokens: spanOf(row.input),
      inputAssumed: row.inputAssumed,
      outputTokens: spanOf(row.output),
      outputAssumed: row.outputAssumed,
      price,
      cost: price === null ? null : row.cost.reduce(addCost, ZERO_COST),
    };
  });
  const priced = estimates.every((estimate) => estimate.cost !== null);
  return {
    declared: true,
    rows: estimates,
    calls: sumCounts(estimates.map((estimate) => estimate.calls)),
    cost: priced ? estimates.reduce((total, estimate) => addCost(total, estimate.cost ?? ZERO_COST), ZERO_COST) : null,
  };
}

function spanOf(ranges: readonly TokenRange[]): TokenRange {
  return ranges.length === 0
    ? { min: 0, max: 0 }
    : { min: Math.min(...ranges.map((range) => range.min)), max: Math.max(...ranges.map((range) => range.max)) };
}

/** `provider:modelId` of a spec: what the estimate shows (never a base URL, which may hold a secret). */
function modelLabel(spec: string): string {
  const parsed = parseModelSpec(spec);
  return `${parsed.provider}:${parsed.modelId}`;
}
