import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import { resolveDataDir } from '../datasets/index.js';
import { sweepJobEmitters } from '../export/sweep-jobs.js';
import {
  renderSweepCsv,
  renderSweepHtml,
  renderSweepJson,
  renderSweepMarkdown,
} from '../reports/render-sweep-table.js';
import { buildSweepTable, type SweepTable } from '../reports/sweep-table.js';
import { checkPlanModels, parseShard, prepareRun, runSweep, type SweepCellOutcome } from '../runner/index.js';
import { ConfidantError, MissingApiKeyError, PlanValidationError } from '../spec/errors.js';
import { EXIT } from './cli-io.js';
import { compatibleClientOption } from './compatible-client-option.js';
import { fullValidation } from './full-validation.js';
import { writeOutputFile } from './output-file.js';
import { planWarnings } from './plan-warnings.js';
import { type PreflightTarget, preflightTargets, runPreflight } from './preflight.js';
import type { CommandContext } from './program.js';
import { readSweepCells, readSweepManifest } from './read-sweep-dir.js';
import { resolveCacheDir } from './resolve-cache-dir.js';
import { shellWord } from './run-lock-session.js';
import { runOutcome } from './run-outcome.js';
import { type PlannedCell, planSweepCells, readSweepFile } from './sweep-cell-plans.js';
import { mergeSweep } from './sweep-merge.js';

const renderers: Record<string, (table: SweepTable) => string> = {
  md: renderSweepMarkdown,
  csv: renderSweepCsv,
  json: renderSweepJson,
  html: renderSweepHtml,
};

const list = (text: string | undefined) =>
  text === undefined
    ? undefined
    : text
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item.length > 0);

function positiveInteger(text: string, flag: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1)
    throw new PlanValidationError(`${flag} takes a whole number ≥ 1, not '${text}'`);
  return value;
}

/** One line per cell outcome, and the exit code it contributes (see `runOutcome`). */
function cellLine(outcome: SweepCellOutcome, maxErrorRate: number): { line: string; exitCode: number } {
  if (outcome.status === 'failed' || outcome.summary === undefined) {
    return { line: `cell ${outcome.id}: failed: ${outcome.error ?? 'no summary'}`, exitCode: EXIT.finishedWithErrors };
  }
  const result = runOutcome({
    summary: outcome.summary,
    stopped: outcome.stopped,
    failFast: outcome.failFast,
    location: outcome.runDir ?? '',
    maxErrorRate,
    failOnError: false,
  });
  const { counts } = outcome.summary;
  const failed = outcome.summary.failures;
  const judgeErrors = failed === undefined ? 0 : failed.judgeErrored;
  const verdict = result.exitCode === EXIT.stoppedEarly ? 'stopped early, resumable' : outcome.status;
  return {
    line: `cell ${outcome.id}: ${verdict}: ${counts.success} ok, ${counts.error} errored${judgeErrors > 0 ? `, ${judgeErrors} with a judge error` : ''}, ${counts.missing} missing of ${counts.planned}`,
    exitCode: result.exitCode,
  };
}

/**
 * Declares `confidant sweep run|report|plan|merge` under `sweep`. Loaded only when the command
 * line is a `sweep` one (see `preloadCommandLine`): the sweep, report and job-emitter code (and
 * `yaml`) is no other command's start-up.
 */
export function registerSweepSubcommands({ sweep, context }: { sweep: Command; context: CommandContext }): void {
  sweep
    .command('run')
    .description('Run every cell of a sweep file; finished cells are reused, unfinished ones resumed.')
    .argument('<sweep-file>', 'the sweep file (YAML or JSON)')
    .option('--out <dir>', 'the sweep directory (default ./sweeps/<name>)')
    .option('--shard <i/n>', 'run shard i of n of every cell (then `confidant sweep merge`)')
    .option('--parallel-cells <k>', 'cells run at once (default 1); their calls share one limiter per endpoint')
    .option('--data-dir <dir>', 'where datasets are read (as `run --data-dir`)')
    .option('--cache-dir <dir>', 'the response cache shared by every cell (as `run --cache-dir`)')
    .option('--retry-errors', 'also redo the samples whose latest record failed')
    .option('--no-preflight', 'skip the check that every endpoint answers before the first cell')
    .option('--dry-run', 'print the cells and their sample counts; call no model')
    .action(async (file: string, flags: Record<string, string | boolean | undefined>) => {
      const { io } = context;
      const loaded = readSweepFile(resolve(io.cwd, file));
      const shard = typeof flags.shard === 'string' ? parseShard(flags.shard) : undefined;
      const cells = await planSweepCells({
        sweep: loaded.sweep,
        baseDir: dirname(loaded.path),
        ...(shard === undefined ? {} : { shard }),
      });
      const dataDir = resolveDataDir({
        flag: typeof flags.dataDir === 'string' ? resolve(io.cwd, flags.dataDir) : undefined,
        env: io.env,
        home: io.home,
      });
      const sweepDir = resolve(io.cwd, typeof flags.out === 'string' ? flags.out : `sweeps/${loaded.name}`);
      const targets = await checkCells({ cells, dataDir, io, dryRun: flags.dryRun === true });
      if (flags.dryRun === true) return;
      if (flags.preflight !== false) await runPreflight({ io, targets });
      const cacheDir = resolve(
        io.cwd,
        resolveCacheDir({
          flag: typeof flags.cacheDir === 'string' ? flags.cacheDir : undefined,
          env: io.env,
          home: io.home,
        }),
      );
      io.stderr(`sweep directory: ${sweepDir} (${cells.length} cells; re-run the same command to continue)\n`);
      const exitCodes: number[] = [];
      const outcomes = await runSweep({
        sweepDir,
        manifest: {
          name: loaded.name,
          file: { path: loaded.path, sha256: loaded.sha256 },
          axes: Object.entries(loaded.sweep.axes).map(([name, values]) => ({ name, labels: Object.keys(values) })),
          ...(loaded.sweep.report === undefined ? {} : { report: loaded.sweep.report }),
        },
        cells,
        dataDir,
        cacheDir,
        cwd: io.cwd,
        env: io.env,
        ...compatibleClientOption(io.env),
        signal: io.signal,
        validate: fullValidation(io.env),
        ...(shard === undefined ? {} : { shard }),
        ...(typeof flags.parallelCells === 'string'
          ? { parallelCells: positiveInteger(flags.parallelCells, '--parallel-cells') }
          : {}),
        retryErrors: flags.retryErrors === true,
        onCellStart: (cell) =>
          io.stderr(`cell ${cell.id}: ${cell.status === 'resumed' ? 'resuming' : 'running'} (${cell.suite})\n`),
        onCellEnd: (outcome) => {
          const plan = cells.find((cell) => cell.id === outcome.id)?.plan;
          const { line, exitCode } = cellLine(outcome, plan?.maxErrorRate ?? 0.2);
          exitCodes.push(exitCode);
          io.stderr(`${line}\n`);
        },
        onLockTakeover: (holder) =>
          io.stderr(
            `note: took over the sweep's lock from PID ${holder.pid} (${holder.command}), which is no longer running\n`,
          ),
      });
      const skipped = cells.length - outcomes.length;
      if (skipped > 0) {
        io.stderr(`sweep interrupted: ${skipped} cells not started; run the same command again to continue\n`);
        exitCodes.push(EXIT.stoppedEarly);
      }
      const counts = { reused: 0, ran: 0, resumed: 0, failed: 0 };
      for (const outcome of outcomes) counts[outcome.status] += 1;
      io.stderr(
        `sweep: ${counts.ran} ran, ${counts.resumed} resumed, ${counts.reused} reused, ${counts.failed} failed of ${cells.length} cells; table: confidant sweep report ${shellWord(sweepDir)}\n`,
      );
      context.outcome.exitCode = exitCodes.includes(EXIT.finishedWithErrors)
        ? EXIT.finishedWithErrors
        : exitCodes.includes(EXIT.stoppedEarly)
          ? EXIT.stoppedEarly
          : EXIT.ok;
      io.stdout(`${sweepDir}\n`);
    });

  sweep
    .command('report')
    .description("Render a sweep's table: rows and columns from its axes, values with 95% intervals.")
    .argument('<sweep-dir>', 'the sweep directory')
    .option('--format <format>', `output format: ${Object.keys(renderers).join(', ')} (default md)`)
    .option('--rows <axes>', 'axes that make the rows, comma-separated (default: all but the last)')
    .option('--cols <axes>', 'axes that make the columns, comma-separated (default: the last)')
    .option('--metric <ids>', 'metrics to show, comma-separated (default: every metric the cells report)')
    .option('--out <file>', 'write to a file instead of stdout')
    .action(async (dir: string, flags: Record<string, string | undefined>) => {
      const { io } = context;
      const format = flags.format ?? 'md';
      const render = renderers[format];
      if (!render)
        throw new PlanValidationError(`unknown format '${format}': use ${Object.keys(renderers).join(', ')}`);
      const sweepDir = resolve(io.cwd, dir);
      const manifest = await readSweepManifest(sweepDir);
      const rows = list(flags.rows) ?? manifest.report?.rows;
      const cols = list(flags.cols) ?? manifest.report?.cols;
      const metrics = list(flags.metric) ?? manifest.report?.metrics;
      const { cells, definitions } = await readSweepCells({ sweepDir, manifest, records: true });
      const table = buildSweepTable({
        name: manifest.name,
        axes: manifest.axes,
        cells,
        definitions,
        ...(rows === undefined ? {} : { rows }),
        ...(cols === undefined ? {} : { cols }),
        ...(metrics === undefined ? {} : { metrics }),
      });
      const text = render(table);
      if (flags.out) {
        writeOutputFile({ path: resolve(io.cwd, flags.out), text, flag: '--out' });
        io.stderr(`wrote ${flags.out}\n`);
      } else io.stdout(text);
      const { counts } = table;
      if (counts.failed + counts.missing + counts.incomplete > 0) {
        io.stderr(
          `warning: ${counts.failed} failed, ${counts.missing} missing and ${counts.incomplete} incomplete of ${cells.length} cells; the table shows them as such\n`,
        );
        context.outcome.exitCode = EXIT.finishedWithErrors;
      }
    });

  sweep
    .command('plan')
    .description('List the cells of a sweep file, or write the job definition that runs it in shards.')
    .argument('<sweep-file>', 'the sweep file (YAML or JSON)')
    .option('--shards <n>', 'how many shards (default 1)')
    .option(
      '--emit <engine>',
      `write a job definition: ${sweepJobEmitters.map((emitter) => `${emitter.id} (${emitter.description})`).join('; ')}`,
    )
    .option('--out <dir>', 'the shared sweep directory the jobs write (default ./sweeps/<name>)')
    .option('--command <text>', 'how jobs call confidant (default `npx confidant`)')
    .option('--image <image>', 'container image (k8s; default node:20)')
    .option('--volume-claim <name>', 'PersistentVolumeClaim with the project and sweep directory (k8s)')
    .option('--write <file>', 'write the job definition to a file instead of stdout')
    .action(async (file: string, flags: Record<string, string | undefined>) => {
      const { io } = context;
      const loaded = readSweepFile(resolve(io.cwd, file));
      const cells = await planSweepCells({ sweep: loaded.sweep, baseDir: dirname(loaded.path) });
      const shards = flags.shards === undefined ? 1 : positiveInteger(flags.shards, '--shards');
      if (flags.emit === undefined) {
        for (const cell of cells) io.stdout(`${cell.id}\t${cell.suite}\t${cell.planHash.slice(0, 12)}\n`);
        io.stderr(
          `${cells.length} cells; write the job definition with --emit ${sweepJobEmitters.map((e) => e.id).join('|')}\n`,
        );
        return;
      }
      const emitter = sweepJobEmitters.find((candidate) => candidate.id === flags.emit);
      if (emitter === undefined) {
        throw new PlanValidationError(
          `unknown engine '${flags.emit}' for --emit: use ${sweepJobEmitters.map((candidate) => candidate.id).join(', ')}`,
        );
      }
      const job = emitter.emit({
        name: loaded.name,
        file,
        dir: flags.out ?? `sweeps/${loaded.name}`,
        shards,
        ...(flags.command === undefined ? {} : { command: flags.command }),
        ...(flags.image === undefined ? {} : { image: flags.image }),
        ...(flags.volumeClaim === undefined ? {} : { volumeClaim: flags.volumeClaim }),
      });
      if (flags.write) {
        writeOutputFile({ path: resolve(io.cwd, flags.write), text: job.text, flag: '--write' });
        io.stderr(`wrote ${flags.write} (${cells.length} cells in ${shards} shards)\n`);
      } else io.stdout(job.text);
    });

  sweep
    .command('merge')
    .description('Join what the shards of a sweep wrote into one run per cell.')
    .argument('<sweep-dir>', 'the shared sweep directory')
    .action(async (dir: string) => {
      const { io } = context;
      const sweepDir = resolve(io.cwd, dir);
      const result = await mergeSweep({ sweepDir, io });
      io.stderr(
        `merged ${result.merged} cells, ${result.unchanged} already merged, ${result.unsharded} without shards\n`,
      );
      if (result.incomplete > 0) context.outcome.exitCode = EXIT.finishedWithErrors;
      io.stdout(`${sweepDir}\n`);
    });
}

/**
 * Prepares every cell before anything runs (data found, options valid, samples non-empty), so a
 * bad cell is one user error up front; prints each distinct plan warning once, and returns the
 * pre-flight targets of all cells. With `dryRun`, prints one line per cell.
 */
async function checkCells({
  cells,
  dataDir,
  io,
  dryRun,
}: {
  cells: readonly PlannedCell[];
  dataDir: string;
  io: CommandContext['io'];
  dryRun: boolean;
}): Promise<PreflightTarget[]> {
  const problems: string[] = [];
  const warnings = new Set<string>();
  const targets: PreflightTarget[] = [];
  // As in `run --dry-run`: a dry run still lists the cells when only API keys are missing.
  const missingKeys = new Set<string>();
  const onMissingKey = dryRun ? { onMissingKey: (error: Error) => missingKeys.add(error.message) } : {};
  for (const cell of cells) {
    try {
      const prepared = await prepareRun({ plan: cell.plan, dataDir: cell.dataDir ?? dataDir });
      checkPlanModels({ plan: cell.plan, prepared, env: io.env, ...onMissingKey });
      for (const warning of planWarnings({ plan: cell.plan, prepared })) warnings.add(warning);
      targets.push(...preflightTargets(prepared));
      if (dryRun) {
        io.stdout(`${cell.id}\t${cell.suite}\t${prepared.samples.length} samples\t${cell.planHash.slice(0, 12)}\n`);
      }
    } catch (error) {
      if (!ConfidantError.isInstance(error) || !error.userError) throw error;
      problems.push(`cell ${cell.id}: ${error.message}`);
    }
  }
  if (problems.length > 0)
    throw new PlanValidationError(`${problems.length} cell(s) cannot run:\n  ${problems.join('\n  ')}`);
  for (const warning of warnings) io.stderr(`warning: ${warning}\n`);
  if (missingKeys.size > 0) throw new MissingApiKeyError(`this sweep cannot run yet: ${[...missingKeys].join('; ')}`);
  return targets;
}
