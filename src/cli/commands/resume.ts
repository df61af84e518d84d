import { resolve } from 'node:path';
import type { Command } from 'commander';
import { resolveDataDir } from '../../datasets/index.js';
import { PlanValidationError } from '../../spec/errors.js';
import { DirectoryRunStore } from '../../store/index.js';
import { executeRun, resolvePlanModels } from '../execute-run.js';
import { parseNonNegativeNumber, parsePositiveInteger } from '../parse-assignments.js';
import { prepareRun, resolveCacheDir } from '../prepare-run.js';
import type { CommandContext } from '../program.js';

/** `confidant resume <run-dir>`: runs the samples that have no record yet. */
export function registerResume({ program, context }: { program: Command; context: CommandContext }): void {
  program
    .command('resume')
    .description('Finish an interrupted run without redoing finished samples.')
    .argument('<run-dir>', 'the run directory')
    .option('--retry-errors', 'also redo samples whose latest record is an error')
    .option('--data-dir <dir>', 'dataset directory')
    .option('--cache-dir <dir>', 'response cache directory')
    .option('--no-cache', 'do not read cached responses')
    .option('--max-cost <usd>', "budget for this invocation (default: the run's own)")
    .option('--max-tokens <n>', "token budget for this invocation (default: the run's own)")
    .option('--fail-on-error', 'exit with code 4 when samples errored')
    .action(
      async (
        runDir: string,
        flags: {
          retryErrors?: boolean;
          dataDir?: string;
          cacheDir?: string;
          cache?: boolean;
          failOnError?: boolean;
          maxCost?: string;
          maxTokens?: string;
        },
      ) => {
        const { io } = context;
        const store = new DirectoryRunStore(resolve(io.cwd, runDir));
        const header = await store.readHeader();
        // Budgets bound one invocation and are not part of the plan's identity, so resume may raise them.
        const plan = {
          ...header.plan,
          ...(flags.maxCost === undefined
            ? {}
            : { maxCostUsd: parseNonNegativeNumber({ text: flags.maxCost, flag: '--max-cost' }) }),
          ...(flags.maxTokens === undefined
            ? {}
            : { maxTokens: parsePositiveInteger({ text: flags.maxTokens, flag: '--max-tokens' }) }),
        };
        const dataDir = resolveDataDir({ flag: flags.dataDir, env: io.env, home: io.home });
        const prepared = await prepareRun({ plan, dataDir });
        if (prepared.dataset.hash !== header.dataset.hash) {
          throw new PlanValidationError(
            `the dataset in ${dataDir} differs from the one this run started with (content hash ${header.dataset.hash}); point --data-dir at the original data, or start a new run`,
          );
        }
        const expected = header.sampleIds.join('\n');
        if (prepared.samples.map((sample) => sample.id).join('\n') !== expected) {
          throw new PlanValidationError(
            `the samples of ${header.suite.id} no longer match this run's plan (suite changed since version ${header.suite.version}); start a new run`,
          );
        }
        const cache = {
          dir: resolveCacheDir({ flag: flags.cacheDir, env: io.env, home: io.home }),
          reads: plan.cache && flags.cache !== false,
        };
        const models = await resolvePlanModels({ io, plan, prepared, cache });
        context.outcome.exitCode = await executeRun({
          io,
          plan,
          prepared,
          store,
          models,
          retryErrors: flags.retryErrors === true,
          failOnError: flags.failOnError === true,
        });
      },
    );
}
