import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { MetricDefinition } from '../../spec/metric-definition.js';
import type { MetricValue } from '../../spec/metric-value.js';
import type { RoleBinding } from '../../spec/model-spec.js';
import type { RunSummary } from '../../spec/run-record.js';
import { loadSuite } from '../../suites/registry.js';
import { EXIT } from '../cli-io.js';
import type { CommandContext } from '../program.js';

/**
 * One demo run: a suite's starter data with one reference agent and deterministic judges only.
 * Other suites join the demo by adding entries here (architecture §10).
 */
type DemoRun = {
  suite: string;
  /** What the row is called in the printed report. */
  label: string;
  /** The suite preset whose options the run takes. */
  preset: string;
  models: RoleBinding[];
};

/**
 * The demo's runs, in report order: pac's `offline` preset (`confidant run pac --preset offline`
 * runs the same thing).
 */
export const DEMO_RUNS: readonly DemoRun[] = [
  {
    suite: 'pac',
    label: 'reference:naive',
    preset: 'offline',
    models: [{ role: 'agent', spec: 'reference:naive' }],
  },
  {
    suite: 'pac',
    label: 'reference:oracle',
    preset: 'offline',
    models: [{ role: 'agent', spec: 'reference:oracle' }],
  },
];

/** A stored fraction rendered ×100; metrics without a value are not applicable, never 0. */
function cell(value: MetricValue | undefined, display: MetricDefinition | undefined): string {
  if (value === undefined || value.value === null) return 'n/a';
  return display?.scale === 'percent' ? (value.value * 100).toFixed(1) : String(Number(value.value.toFixed(4)));
}

type DemoResult = {
  run: DemoRun;
  directory: string;
  summary: RunSummary;
  headline: string[];
  display: Readonly<Record<string, MetricDefinition>>;
};

async function runDemo({ run, outDir, signal }: { run: DemoRun; outDir: string; signal: AbortSignal }) {
  const [{ evaluate }, { indexMetricDefinitions }, { findPreset }] = await Promise.all([
    import('../../runner/index.js'),
    import('../../spec/metric-definition.js'),
    import('../with-preset.js'),
  ]);
  const preset = findPreset({ suite: await loadSuite(run.suite), id: run.preset });
  const { summary, store, suite } = await evaluate({
    suite: run.suite,
    options: { ...preset.options },
    models: run.models,
    // Starter data ships with the package: no data directory is read.
    dataDir: outDir,
    outDir,
    lockCommand: 'confidant demo',
    signal,
  });
  return {
    run,
    directory: store.location,
    summary,
    headline: suite.report?.headline ?? Object.keys(summary.metrics),
    display: indexMetricDefinitions(suite.metrics.definitions),
  } satisfies DemoResult;
}

/** The printed report: one table per suite (headline metrics plus the ones only an LLM judge can fill). */
export function renderDemoReport(results: readonly DemoResult[]): string {
  const lines = [
    '# confidant demo',
    '',
    'Starter scenarios, reference agents, deterministic judges: no model, no network.',
    '',
  ];
  for (const suite of [...new Set(results.map((result) => result.run.suite))]) {
    const rows = results.filter((result) => result.run.suite === suite);
    const first = rows[0]!;
    const unfilled = Object.keys(first.summary.metrics).filter(
      (metric) => !first.headline.includes(metric) && rows.every((row) => row.summary.metrics[metric]?.value === null),
    );
    const columns = [...first.headline, ...unfilled];
    const label = (metric: string) => first.display[metric]?.label ?? metric;
    lines.push(`## ${suite}`, '', `| Agent | Samples | ${columns.map(label).join(' | ')} |`);
    lines.push(`|---|---|${columns.map(() => '---|').join('')}`);
    for (const row of rows) {
      const { counts } = row.summary;
      const values = columns.map((metric) => cell(row.summary.metrics[metric], row.display[metric]));
      lines.push(`| ${row.run.label} | ${counts.success}/${counts.planned} | ${values.join(' | ')} |`);
    }
    lines.push('');
    for (const row of rows) {
      const privacy = row.summary.metrics.acc_privacy;
      if (privacy?.value === null || privacy === undefined) continue;
      const verdict =
        privacy.value === 1
          ? 'complies with every policy'
          : privacy.value === 0
            ? 'violates its policies'
            : 'violates some policies';
      lines.push(
        `- ${row.run.label} ${verdict} (Acc_privacy ${cell(privacy, row.display.acc_privacy)}%, in ${privacy.n} runs).`,
      );
    }
    if (unfilled.length > 0) {
      lines.push(
        `- n/a: ${unfilled.map(label).join(', ')} need${unfilled.length === 1 ? 's' : ''} an LLM judge; the demo runs none.`,
      );
    }
    lines.push('');
  }
  lines.push(
    'Run directories (inspect with `confidant report <dir>`):',
    ...results.map((result) => `- ${result.directory}`),
  );
  return `${lines.join('\n')}\n`;
}

/** `confidant demo`: the offline demo (architecture §10). */
export function registerDemo({ program, context }: { program: Command; context: CommandContext }): void {
  program
    .command('demo')
    .description(
      'Offline demo: starter scenarios with the reference agents and deterministic judges (no model, no network).',
    )
    .option('--out <dir>', 'where the demo run directories go (default ./confidant-demo)')
    .action(async (flags: { out?: string }) => {
      const { io } = context;
      const outDir = resolve(io.cwd, flags.out ?? 'confidant-demo');
      const results: DemoResult[] = [];
      for (const run of DEMO_RUNS) {
        io.stderr(`demo: ${run.suite} with ${run.label}…\n`);
        results.push(await runDemo({ run, outDir, signal: io.signal }));
      }
      io.stdout(renderDemoReport(results));
      context.outcome.exitCode = EXIT.ok;
    });
}
