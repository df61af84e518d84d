import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { Report } from '../../reports/build-report.js';
import { buildReport } from '../../reports/build-report.js';
import { renderCsv } from '../../reports/render-csv.js';
import { renderJson } from '../../reports/render-json.js';
import { renderMarkdown } from '../../reports/render-markdown.js';
import { buildSummary } from '../../runner/index.js';
import { PlanValidationError } from '../../spec/errors.js';
import type { MetricDefinition } from '../../spec/metric-definition.js';
import { DirectoryRunStore } from '../../store/index.js';
import { findSuite } from '../../suites/registry.js';
import { writeOutputFile } from '../output-file.js';
import { parseSuiteOptions } from '../prepare-run.js';
import type { CommandContext } from '../program.js';

const renderers: Record<string, (report: Report) => string> = {
  md: renderMarkdown,
  json: renderJson,
  csv: renderCsv,
};

/** `confidant report <run-dir…>`: a paper-style table of one or more runs. */
export function registerReport({ program, context }: { program: Command; context: CommandContext }): void {
  program
    .command('report')
    .description('Render a paper-style table of one or more runs.')
    .argument('<run-dirs...>', 'run directories (several are shown side by side)')
    .option('--format <format>', `output format: ${Object.keys(renderers).join(', ')}`, 'md')
    .option('--out <file>', 'write to a file instead of stdout')
    .action(async (runDirs: string[], flags: { format: string; out?: string }) => {
      const { io } = context;
      const render = renderers[flags.format];
      if (!render) {
        throw new PlanValidationError(
          `unknown report format '${flags.format}': use ${Object.keys(renderers).join(', ')}`,
        );
      }
      const runs = [];
      const definitions: MetricDefinition[] = [];
      let headline: string[] = [];
      for (const dir of runDirs) {
        const store = new DirectoryRunStore(resolve(io.cwd, dir));
        const header = await store.readHeader();
        const suite = findSuite(header.suite.id);
        // The first run's suite wins for a metric id two suites share.
        const known = new Set(definitions.map((definition) => definition.id));
        definitions.push(...suite.metricDefinitions.filter((definition) => !known.has(definition.id)));
        headline = headline.length > 0 ? headline : (suite.headline ?? []);
        // A run killed before its summary was written still has its records: summarise them now.
        const summary =
          (await store.readSummary()) ??
          buildSummary({
            runId: header.runId,
            suite,
            options: parseSuiteOptions({ suite, raw: header.plan.suiteOptions }),
            planned: header.sampleIds,
            records: await store.readSamples({ events: false, history: true }),
          });
        runs.push({ header, summary, extraMarkdown: suite.reportMarkdown?.(summary) ?? '' });
      }
      const text = render(buildReport({ runs, definitions, headline }));
      if (flags.out) {
        const target = resolve(io.cwd, flags.out);
        writeOutputFile({ path: target, text, flag: '--out' });
        io.stderr(`wrote ${flags.out}\n`);
      } else io.stdout(text.endsWith('\n') ? text : `${text}\n`);
    });
}
