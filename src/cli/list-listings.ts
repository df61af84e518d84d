import { defenseFamilies } from '../defenses/defense-catalog.js';
import { providerRegistry } from '../models/index.js';
import { METRICS_DOC_PATH } from '../reports/metric-anchor.js';
import { DIRECTION_TEXT, SOURCE_TEXT, scaleText } from '../reports/render-metric-docs.js';
import { type Suite, suiteJudges } from '../suites/suite.js';
import type { ListingName } from './commands/list.js';
import { formatSuiteOptions, formatSuitePresets } from './suite-options-help.js';

type Rows = { title: string; rows: Array<{ name: string; description: string }> };
/** What a listing is drawn from: the suites asked for (every one, or the named one). */
export type ListContext = { suites: readonly Suite[]; verbose: boolean };

function table({ title, rows }: Rows): string {
  const width = Math.max(...rows.map((row) => row.name.length), 4);
  return `${title}\n${rows.map((row) => `  ${row.name.padEnd(width)}  ${row.description}`).join('\n')}\n\n`;
}

function suiteLine(suite: Suite): string {
  const flags = suite.flags?.length ? ` Flags: ${suite.flags.map((flag) => flag.flag).join(', ')}.` : '';
  const presets = suite.presets?.length ? ` Presets: ${suite.presets.map((preset) => preset.id).join(', ')}.` : '';
  return `${suite.description}${flags}${presets}`;
}

/** Every metric of a suite with what it means, as `docs/metrics.md` gives it. */
function metricsOf(suite: Suite): string {
  const width = Math.max(...suite.metrics.definitions.map((definition) => definition.id.length));
  const indent = ' '.repeat(width + 4);
  const entries = suite.metrics.definitions.map((definition) =>
    [
      `  ${definition.id.padEnd(width)}  ${definition.label}: ${scaleText(definition)}; ${DIRECTION_TEXT[definition.direction]}`,
      `${indent}${definition.definition}`,
      `${indent}formula: ${definition.formula}`,
      `${indent}${definition.denominator}`,
      `${indent}source: ${SOURCE_TEXT[definition.source.kind]}: ${definition.source.reference}`,
      ...(definition.groups === undefined ? [] : [`${indent}in breakdowns: ${definition.groups.join(', ')}`]),
    ].join('\n'),
  );
  return `Metrics of ${suite.id} (${METRICS_DOC_PATH}#${suite.id}):\n${entries.join('\n')}\n\n`;
}

/**
 * What `confidant list <what>` prints, per listing: loaded by the `list` action only, as it reads
 * the providers, defenses and report code that no other command's start-up needs.
 */
export const listings: Record<ListingName, (context: ListContext) => string> = {
  suites: ({ suites, verbose }) =>
    verbose
      ? suites
          .map((suite) => {
            const presets = formatSuitePresets(suite);
            return `${suite.id}: ${suiteLine(suite)}\n${formatSuiteOptions(suite)}${presets === '' ? '' : `  presets (--preset <id>):\n${presets.replace(/^/gm, '  ')}`}\n`;
          })
          .join('')
      : table({ title: 'Suites', rows: suites.map((suite) => ({ name: suite.id, description: suiteLine(suite) })) }),
  options: ({ suites }) =>
    suites
      .map(
        (suite) =>
          `Options of ${suite.id} (--set <key>=<value>; the flag in brackets is the same setting):\n${formatSuiteOptions(suite)}\n`,
      )
      .join(''),
  presets: ({ suites }) => {
    const withPresets = suites.filter((suite) => (suite.presets?.length ?? 0) > 0);
    if (withPresets.length === 0) return `No presets for ${suites.map((suite) => suite.id).join(', ')}.\n\n`;
    return withPresets
      .map(
        (suite) => `Presets of ${suite.id} (confidant run ${suite.id} --preset <id>):\n${formatSuitePresets(suite)}\n`,
      )
      .join('');
  },
  metrics: ({ suites }) => suites.map(metricsOf).join(''),
  providers: () =>
    table({
      title: 'Providers (model spec: provider:model[@baseURL[,baseURL…]])',
      rows: providerRegistry.map((provider) => ({ name: provider.id, description: provider.description })),
    }),
  defenses: () =>
    table({
      title: 'Defenses (--defense)',
      rows: defenseFamilies.map((entry) => ({
        name: entry.usage,
        description: `${entry.description}${entry.aliases.length ? ` Alias: ${entry.aliases.join(', ')}.` : ''}`,
      })),
    }),
  judges: ({ suites }) =>
    table({
      title: 'Judges (by suite, with default options)',
      rows: suites.flatMap((suite) => {
        const defaults = suite.options.safeParse({});
        if (!defaults.success) return [{ name: suite.id, description: 'judges depend on the suite options' }];
        const judges = suiteJudges({ scorers: suite.scorers, options: defaults.data });
        return judges.length === 0
          ? [{ name: suite.id, description: 'deterministic scoring only' }]
          : judges.map((judge) => ({
              name: `${suite.id}/${judge.id}@${judge.version}`,
              description: judge.templateSha256,
            }));
      }),
    }),
};
