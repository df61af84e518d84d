import type { MetricDefinition, MetricDirection, MetricSourceKind } from '../spec/metric-definition.js';
import type { Suite } from '../suites/suite.js';
import { metricAnchor } from './metric-anchor.js';

/** How `docs/metrics.md` and `confidant list metrics` name a direction. */
export const DIRECTION_TEXT: Readonly<Record<MetricDirection, string>> = {
  higher: 'higher is better',
  lower: 'lower is better',
  neutral: 'neither direction is better',
};

/** How they name a source kind. */
export const SOURCE_TEXT: Readonly<Record<MetricSourceKind, string>> = {
  paper: 'paper',
  'upstream-code': 'upstream code',
  extension: 'our extension',
};

/** `percent (stored 0–1, shown ×100)`, `raw, 0 to 3`, `count`: the scale and range in words. */
export function scaleText(definition: Pick<MetricDefinition, 'scale' | 'range'>): string {
  const range = definition.range === undefined ? '' : `${definition.range.min} to ${definition.range.max}`;
  if (definition.scale === 'percent') return `percent (stored ${range || '0 to 1'}, shown ×100)`;
  if (definition.scale === 'count') return 'count (whole number)';
  return range === '' ? definition.scale : `${definition.scale}, ${range}`;
}

const INTRO = `# Metrics

<!-- Generated from the suites' metric definitions by \`npm run docs:metrics\`; do not edit by hand (a test fails when this file is stale). -->

Every number a confidant report prints is defined here, from the same registration the suites compute it with
(\`confidant list metrics [suite]\` prints the same text in the terminal). Each report ends with a
"Metric definitions" section that links here.

## Reading a metric

- **value, n, errors, notApplicable.** Every metric in \`summary.json\` is \`{ value, n, errors, notApplicable }\`.
  \`n\` counts the units the value is computed over (samples, cases, conversations, rounds, runs: each
  definition says which). \`errors\` counts units that could not be decided (a failed sample, a judge reply that
  never parsed): they are left out, never counted as safe or as zero. \`notApplicable\` counts units the metric
  does not apply to (a sample with no action, a conversation outside the metric's scope).
- **null.** A value is \`null\` (shown \`n/a\`) when nothing could be scored; it is never turned into 0 or 1.
- **Scale.** Rates are stored on 0–1 and shown ×100 as percentages; means keep their own range (helpfulness 0–3,
  persona consistency 1–5); counts are whole numbers whose \`n\` says what they were counted among.
- **Direction.** Whether a higher or a lower value is better; counts and diagnostics are neither.
- **Epochs and worst cases.** \`--epochs K\` draws K samples per scenario. Rates over samples average all of
  them; a *worst case* (ConfAIde \`<id>_worst\`, PrivacyLens Leak@K) is the share of scenarios where **at least
  one** of the K samples shows the bad outcome, so it is never below the mean form and equals it when K = 1.
- **95% intervals (\`ci95\`, \`ciMethod\`).** Rates and means carry one when it can be estimated. \`wilson\`: the Wilson score
  interval, for a proportion whose units are independent (one record per scenario). \`scenario-bootstrap\`: the
  2.5th–97.5th percentiles of the metric over 200 seeded resamples of whole scenarios, for clustered or aggregated
  metrics (epochs or variants of one scenario, several units per sample, worst case over epochs, means of means).
  \`cluster-wilson\`: when every scenario of a clustered rate gives the same value (every story leaked, or none
  did), the bootstrap can only redraw that value and would print a zero-width interval such as 0.0–0.0; the rate
  gets instead the Wilson interval counting each scenario with units of the metric as one unit (for 0 of 4
  scenarios: 0.0–49.0), since units inside one scenario may be fully correlated. Breakdowns carry Wilson
  intervals when their units are independent and none otherwise.
- **Source.** *paper*: as the suite's paper defines it; *upstream code*: as the public upstream repository
  computes it; *our extension*: added by confidant (deterministic cross-checks, breakdowns, calibration).
`;

function metricSection({ suite, definition }: { suite: string; definition: MetricDefinition }): string[] {
  const anchor = metricAnchor({ suite, id: definition.id });
  return [
    `### <a id="${anchor}"></a>${definition.label} (\`${definition.id}\`)`,
    '',
    definition.definition,
    '',
    `- **Formula:** ${definition.formula}`,
    `- **Denominator:** ${definition.denominator}`,
    `- **Direction:** ${DIRECTION_TEXT[definition.direction]}`,
    `- **Scale:** ${scaleText(definition)}`,
    `- **Source:** ${SOURCE_TEXT[definition.source.kind]}: ${definition.source.reference}`,
    ...(definition.groups === undefined
      ? []
      : [`- **Appears in:** the breakdowns ${definition.groups.map((group) => `\`${group}\``).join(', ')}`]),
    '',
  ];
}

function suiteSection(suite: Suite): string[] {
  const rows = suite.metrics.definitions.map(
    (definition) =>
      `| [\`${definition.id}\`](#${metricAnchor({ suite: suite.id, id: definition.id })}) | ${definition.label} | ${definition.direction} | ${definition.scale} | ${SOURCE_TEXT[definition.source.kind]} |`,
  );
  return [
    `## <a id="${suite.id}"></a>\`${suite.id}\``,
    '',
    suite.description,
    '',
    ...(suite.report?.headline === undefined || suite.report?.headline.length === 0
      ? []
      : [`Headline (the paper's table): ${suite.report?.headline.map((id) => `\`${id}\``).join(', ')}.`, '']),
    '| Metric | Label | Better | Scale | Source |',
    '|---|---|---|---|---|',
    ...rows,
    '',
    ...suite.metrics.definitions.flatMap((definition) => metricSection({ suite: suite.id, definition })),
  ];
}

/**
 * `docs/metrics.md`: every metric of every suite, generated from the suites' `metrics.definitions`
 * (`npm run docs:metrics` writes it; a test compares the committed file with this output).
 */
export function renderMetricDocs(suites: readonly Suite[]): string {
  const contents = suites.map((suite) => `- [\`${suite.id}\`](#${suite.id}): ${suite.description}`);
  const lines = [INTRO, '## Suites', '', ...contents, '', ...suites.flatMap(suiteSection)];
  return `${lines.join('\n').trimEnd()}\n`;
}
