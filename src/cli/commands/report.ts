import { appendFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { Report } from '../../reports/build-report.js';
import { PlanValidationError } from '../../spec/errors.js';
import { applyHeapPolicy } from '../heap-policy.js';
import { writeOutputFile } from '../output-file.js';
import type { CommandContext } from '../program.js';

// Renderers are loaded when chosen: `--help` and the other commands never load report code.
const renderers: Record<string, () => Promise<(report: Report) => string>> = {
  md: async () => (await import('../../reports/render-markdown.js')).renderMarkdown,
  json: async () => (await import('../../reports/render-json.js')).renderJson,
  csv: async () => (await import('../../reports/render-csv.js')).renderCsv,
};

/** `confidant report <run-dir…>`: a paper-style table of one or more runs, or one row per sample. */
export function registerReport({ program, context }: { program: Command; context: CommandContext }): void {
  program
    .command('report')
    .description('Render a paper-style table of one or more runs (or, with --per-sample, one row per sample).')
    .argument('<run-dirs...>', 'run directories of one suite (several are shown side by side)')
    .option(
      '--format <format>',
      `output format: ${Object.keys(renderers).join(', ')}, html (one self-contained file); with --per-sample: csv, jsonl`,
    )
    .option('--per-sample', 'one row per sample: id, scenario, variant, epoch, defense, status, scores, error')
    .option('--out <file>', 'write to a file instead of stdout')
    .action(async (runDirs: string[], flags: { format?: string; out?: string; perSample?: boolean }) => {
      const { io } = context;
      if (flags.perSample) {
        const format = flags.format ?? 'csv';
        if (format !== 'csv' && format !== 'jsonl') {
          throw new PlanValidationError(
            `--per-sample writes csv or jsonl, not '${format}': use --format csv or --format jsonl`,
          );
        }
        const [{ streamPerSample }, { readReportHeaders }] = await Promise.all([
          import('../../reports/stream-per-sample.js'),
          import('../read-report-runs.js'),
        ]);
        // Rows need headers and records only: a run without summary.json is not summarised first.
        const runs = await readReportHeaders({ dirs: runDirs, cwd: io.cwd });
        // A pass over every record promotes short-lived records: keep the heap near what is live.
        applyHeapPolicy({ execArgv: process.execArgv });
        // Rows are written as they are read (a run of any size holds a chunk of rows, not the run).
        if (flags.out) {
          const path = resolve(io.cwd, flags.out);
          writeOutputFile({ path, text: '', flag: '--out' });
          await streamPerSample({ runs, format, write: (chunk) => appendFileSync(path, chunk) });
          io.stderr(`wrote ${flags.out}\n`);
        } else {
          let wrote = false;
          await streamPerSample({
            runs,
            format,
            write: (chunk) => {
              wrote ||= chunk.length > 0;
              io.stdout(chunk);
            },
          });
          if (!wrote) io.stdout('\n');
        }
        return;
      }
      if (flags.format === 'html') {
        const [{ writeHtml }, { expandRunDirs, readViewModel }] = await Promise.all([
          import('../../reports/html/render-html.js'),
          import('../read-view-model.js'),
        ]);
        applyHeapPolicy({ execArgv: process.execArgv });
        const { model, records = [] } = await readViewModel({
          dirs: expandRunDirs({ args: runDirs, cwd: io.cwd }),
          cwd: io.cwd,
          mode: 'static',
          oneSuite: { command: 'report --format html' },
        });
        // The page is written as its records are read: a run of any size holds one record at a time.
        try {
          if (flags.out) {
            const path = resolve(io.cwd, flags.out);
            writeOutputFile({ path, text: '', flag: '--out' });
            await writeHtml({ model, records, write: (chunk) => appendFileSync(path, chunk) });
            io.stderr(`wrote ${flags.out}\n`);
          } else await writeHtml({ model, records, write: (chunk) => io.stdout(chunk) });
        } finally {
          for (const run of records) await run.close();
        }
        return;
      }
      const format = flags.format ?? 'md';
      const loadRenderer = renderers[format];
      if (!loadRenderer) {
        throw new PlanValidationError(
          `unknown report format '${format}': use ${Object.keys(renderers).join(', ')} or html`,
        );
      }
      const [render, { buildReport }, { readReportRuns }, { refuseMixedSuites }] = await Promise.all([
        loadRenderer(),
        import('../../reports/build-report.js'),
        import('../read-report-runs.js'),
        import('../refuse-mixed-suites.js'),
      ]);
      const input = await readReportRuns({ dirs: runDirs, cwd: io.cwd });
      refuseMixedSuites({
        runs: input.runs.map((run) => ({ dir: run.dir, suite: run.header.suite.id })),
        cwd: io.cwd,
        command: 'report',
      });
      const text = render(buildReport(input));
      if (flags.out) {
        writeOutputFile({ path: resolve(io.cwd, flags.out), text, flag: '--out' });
        io.stderr(`wrote ${flags.out}\n`);
      } else io.stdout(text.endsWith('\n') ? text : `${text}\n`);
    });
}
