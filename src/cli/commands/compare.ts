import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { RunComparison } from '../../reports/compare-runs.js';
import { PlanValidationError } from '../../spec/errors.js';
import { applyHeapPolicy } from '../heap-policy.js';
import { writeOutputFile } from '../output-file.js';
import type { CommandContext } from '../program.js';

const FORMATS = ['md', 'json'];

/** `confidant compare <run-a> <run-b> […]`: every later run against the first, with paired tests. */
export function registerCompare({ program, context }: { program: Command; context: CommandContext }): void {
  program
    .command('compare')
    .description(
      'Compare runs of one suite on the same scenarios: metric differences, paired tests (exact McNemar, paired bootstrap), judge agreement (Cohen’s kappa) and the samples whose verdict flipped. Each run after the first is compared with the first.',
    )
    .argument('<run-a>', 'the baseline run directory')
    .argument('<run-b...>', 'run directories to compare with the baseline')
    .option('--format <format>', `output format: ${FORMATS.join(', ')}`, 'md')
    .option('--out <file>', 'write to a file instead of stdout')
    .action(async (runA: string, others: string[], flags: { format: string; out?: string }) => {
      const { io } = context;
      if (!FORMATS.includes(flags.format)) {
        throw new PlanValidationError(`unknown compare format '${flags.format}': use ${FORMATS.join(', ')}`);
      }
      // Loaded on first use: `--help` and the other commands never need the report code.
      const [{ compareRuns }, { renderCompareMarkdown }, { readReportRuns }, { readCompareRecords }] =
        await Promise.all([
          import('../../reports/compare-runs.js'),
          import('../../reports/render-compare.js'),
          import('../read-report-runs.js'),
          import('../../reports/read-compare-records.js'),
        ]);
      const { runs, definitions } = await readReportRuns({ dirs: [runA, ...others], cwd: io.cwd });
      // A pass over every record promotes short-lived records: keep the heap near what is live.
      applyHeapPolicy({ execArgv: process.execArgv });
      const [baseline, ...rest] = runs;
      if (baseline === undefined) return;
      const baselineInput = {
        header: baseline.header,
        summary: baseline.summary,
        // Each run is held as ids, score keys and verdicts (`compareRecord`), not as records.
        records: await readCompareRecords(baseline.store),
      };
      const comparisons: RunComparison[] = [];
      for (const run of rest) {
        comparisons.push(
          compareRuns({
            a: baselineInput,
            b: { header: run.header, summary: run.summary, records: await readCompareRecords(run.store) },
            dirs: { a: baseline.dir, b: run.dir },
          }),
        );
      }
      const text =
        flags.format === 'json'
          ? `${JSON.stringify({ comparisons }, null, 2)}\n`
          : renderCompareMarkdown({ comparisons, definitions });
      if (flags.out) {
        writeOutputFile({ path: resolve(io.cwd, flags.out), text, flag: '--out' });
        io.stderr(`wrote ${flags.out}\n`);
      } else io.stdout(text.endsWith('\n') ? text : `${text}\n`);
    });
}
