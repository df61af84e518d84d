import { parseModelSpec, redactEndpoint } from '../models/parse-model-spec.js';
import {
  ASSUMED_INPUT_TOKENS,
  ASSUMED_MAX_OUTPUT_TOKENS,
  type CostRange,
  type PlanEstimate,
  type RoleCallEstimate,
} from '../runner/estimate-plan.js';
import type { PreparedRun } from '../runner/prepare-run.js';
import type { RunPlan } from '../spec/run-plan.js';
import type { CallCount, TokenRange } from '../suites/call-pattern.js';

/** `$0.0123`, `<$0.0001` for a positive amount too small to show, `$0` for nothing. */
export function formatUsd(usd: number): string {
  if (usd === 0) return '$0';
  if (usd < 0.0001) return '<$0.0001';
  return `$${usd.toFixed(4)}`;
}

const range = (min: number, max: number | null) => (max === null ? `${min}–no bound` : `${min}–${max}`);
const tokens = ({ min, max }: TokenRange) => (min === max ? String(min) : `${min}–${max}`);
const expected = (count: CallCount) => (count.expected === null ? '?' : String(count.expected));
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function costText(cost: CostRange | null): string {
  if (cost === null) return 'unknown';
  return `${formatUsd(cost.low)}–${cost.high === null ? 'no bound' : formatUsd(cost.high)}`;
}

/**
 * Options as JSON, with every model spec's base URLs redacted (PAC's `seats` carry the specs, and
 * a base URL may hold credentials or a query-string key).
 */
function optionsJson(options: unknown): string {
  return JSON.stringify(options, (_key, value: unknown) => {
    if (typeof value !== 'string' || !/@https?:\/\//i.test(value)) return value;
    try {
      const spec = parseModelSpec(value);
      return `${spec.provider}:${spec.modelId}@${spec.baseURLs.map(redactEndpoint).join(',')}`;
    } catch {
      return value;
    }
  });
}

function table(rows: string[][]): string[] {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  return rows.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd(),
  );
}

function roleRow(row: RoleCallEstimate): string[] {
  return [
    row.role,
    row.model ?? '(not bound)',
    expected(row.calls),
    range(row.calls.min, row.calls.max),
    `${tokens(row.inputTokens)}${row.inputAssumed ? ' *' : ''}`,
    `${tokens(row.outputTokens)}${row.outputAssumed ? ' †' : ''}`,
    row.price === null ? 'unknown' : `${row.price.inputPerMillionUsd}/${row.price.outputPerMillionUsd}`,
    costText(row.cost),
  ];
}

/**
 * The text `confidant run --dry-run` prints: the plan (suite, options, dataset, samples after
 * limit, ids, shard and epochs, defenses), the expected model calls per role and model with their
 * ranges, the token assumptions, and the estimated cost when every model has a price.
 */
export function renderDryRun({
  plan,
  prepared,
  estimate,
}: {
  plan: RunPlan;
  prepared: PreparedRun;
  estimate: PlanEstimate;
}): string {
  const { suite, samples, allSamples, dataset } = prepared;
  const scenarios = new Set(samples.map((sample) => sample.scenarioId)).size;
  const shard =
    plan.shard === undefined ? '' : `, shard ${plan.shard.index}/${plan.shard.count} of ${allSamples.length}`;
  const lines = [
    'dry run: no model is called and no run directory is created',
    '',
    ...table([
      ['suite', `${suite.id} v${suite.version}`],
      ['options', optionsJson(prepared.options)],
      [
        'dataset',
        dataset.files.length === 0
          ? `${dataset.name} (${dataset.hash}, no data files)`
          : `${dataset.name} (${plural(dataset.files.length, 'file')} in ${dataset.root ?? prepared.dataDir}, sha256 ${dataset.hash.slice(0, 12)})`,
      ],
      ['samples', `${samples.length} (${plural(scenarios, 'scenario')}, ${plural(plan.epochs, 'epoch')}${shard})`],
      ['defenses', prepared.defenses.map((defense) => defense.id).join(', ')],
      ...(plan.maxCostUsd === undefined ? [] : [['budget', `--max-cost ${formatUsd(plan.maxCostUsd)}`]]),
      ...(plan.maxTokens === undefined ? [] : [['budget', `--max-tokens ${plan.maxTokens}`]]),
    ]),
    '',
  ];
  if (!estimate.declared) {
    lines.push(`model calls: suite ${suite.id} declares no call pattern, so calls and cost cannot be estimated`);
    return `${lines.join('\n')}\n`;
  }
  const header = ['role', 'model', 'calls', 'range', 'input/call', 'output/call', 'USD/1M in/out', 'cost'];
  const total = ['total', '', expected(estimate.calls), range(estimate.calls.min, estimate.calls.max), '', '', '', ''];
  lines.push(...table([header, ...estimate.rows.map(roleRow), total]), '');
  const unpriced = estimate.rows.filter((row) => row.price === null && row.model !== null).map((row) => row.model);
  if (estimate.cost !== null) {
    const atExpected = estimate.cost.expected;
    lines.push(
      `estimated cost: ${costText(estimate.cost)}` +
        (atExpected === null || (atExpected.low === estimate.cost.low && atExpected.high === estimate.cost.high)
          ? ''
          : ` (at the expected calls: ${formatUsd(atExpected.low)}–${formatUsd(atExpected.high)})`),
    );
  } else {
    lines.push(
      `estimated cost: unknown without a price for ${[...new Set(unpriced)].join(', ') || 'every model'}` +
        (unpriced.length === 0
          ? ''
          : ` (add ${[...new Set(unpriced)].map((model) => `--price ${model}=<input>/<output>`).join(' ')})`),
    );
  }
  lines.push(
    'calls: expected when every reply parses at once; range: fewest to most (retries, early stops, turn limits)',
    'tokens: 4 characters a token; cost from the fewest calls with 1-token replies to the most calls with the largest',
  );
  if (estimate.rows.some((row) => row.inputAssumed))
    lines.push(`* no estimate from the suite: ${tokens(ASSUMED_INPUT_TOKENS)} input tokens assumed`);
  if (estimate.rows.some((row) => row.outputAssumed))
    lines.push(`† no maxOutputTokens for the role: at most ${ASSUMED_MAX_OUTPUT_TOKENS} assumed`);
  return `${lines.join('\n')}\n`;
}
