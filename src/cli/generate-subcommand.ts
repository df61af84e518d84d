import { resolve } from 'node:path';
import type { Command } from 'commander';
import { type DataGenerator, GENERATION_DIR, type GeneratorResult } from '../generation/index.js';
import { BudgetExceededError, PlanValidationError, ProviderError, stopsRun } from '../spec/errors.js';
import { loadSuite } from '../suites/registry.js';
import { EXIT } from './cli-io.js';
import { addDatagenOptions, datagenFlagsOf, resolveDatagenModels } from './datagen-models.js';
import { generationRunDir, openGenerationRun } from './generation-run.js';
import { addGeneratorFlags, type GeneratorFlag, generatorFlags, parseGeneratorFlags } from './generator-flags.js';
import type { CommandContext } from './program.js';

/**
 * Declares `confidant generate <id>` for one loaded generator: its flags from the generator's flag
 * schema, `--out` and the model flags every generation shares. Loaded (with the generators) only
 * when the command line is a `generate` one (see `preloadCommandLine`).
 */
export function registerGenerator({
  generate,
  generator,
  context,
}: {
  generate: Command;
  generator: DataGenerator;
  context: CommandContext;
}): void {
  const flags = generatorFlags(generator);
  const command = addDatagenOptions(generate.command(generator.id))
    .description(generator.description)
    .option('--out <dir>', `${generator.out} (required; .generate/ holds the resume journal and the run directory)`);
  addGeneratorFlags({ command, flags });
  if (generator.epilog !== undefined) command.addHelpText('after', `\n${generator.epilog}\n`);
  command.action(async (_options: unknown, self: Command) => {
    context.outcome.exitCode = await runGenerator({ generator, flags, self, context });
  });
}

async function runGenerator({
  generator,
  flags,
  self,
  context,
}: {
  generator: DataGenerator;
  flags: GeneratorFlag[];
  self: Command;
  context: CommandContext;
}): Promise<number> {
  const { io } = context;
  const name = `generate ${generator.id}`;
  const out: unknown = self.opts().out;
  if (typeof out !== 'string') throw new PlanValidationError(`${name} needs --out <dir>: ${generator.out}`);
  const outDir = resolve(io.cwd, out);
  const values = parseGeneratorFlags({ generator, flags, command: self });
  const { models, bindings, settings } = await resolveDatagenModels({ io, flags: datagenFlagsOf(self), command: name });
  const resume = `finished units are kept in ${resolve(outDir, GENERATION_DIR)}; run the same command again to continue`;
  try {
    const run = await openGenerationRun({
      outDir,
      generator: generator.id,
      version: (await loadSuite(generator.id)).version,
      flags: values,
      bindings,
      modelSettings: settings,
      models: models.describe(),
    });
    const model = models
      .factory({ sampleId: `generate:${generator.id}`, epoch: 0, emit: run.emit, signal: io.signal })
      .model('datagen');
    let result: GeneratorResult;
    try {
      result = await generator.run({ flags: values, model, outDir, cwd: io.cwd, signal: io.signal, log: io.stderr });
    } catch (error) {
      const stopped = io.signal.aborted || isStop(error);
      await run.finish({
        status: 'error',
        output: null,
        error: {
          name: error instanceof Error ? error.name : 'Error',
          message: String((error as Error)?.message ?? error),
        },
        complete: false,
        ...(stopped ? { stopReason: error instanceof BudgetExceededError ? 'budget' : 'interrupted' } : {}),
      });
      throw error;
    }
    await run.finish({ status: 'ok', output: result, complete: result.status === 'complete' });
    const usage = models.ledger.totals();
    io.stderr(
      `datagen: ${usage.calls} calls (${usage.cachedCalls} cached), ${usage.inputTokens} input / ${usage.outputTokens} output tokens, ` +
        `cost ${usage.costUsd === null ? 'unknown' : `$${usage.costUsd.toFixed(4)}`}; recorded in ${generationRunDir(outDir)}\n`,
    );
    if (result.status === 'failed') {
      io.stderr(`confidant: ${result.failure ?? `${name} generated nothing`}\n`);
      return EXIT.userError;
    }
    io.stdout(`${result.output}\n`);
    return result.status === 'partial' ? EXIT.finishedWithErrors : EXIT.ok;
  } catch (error) {
    if (io.signal.aborted || isStop(error)) {
      const why =
        error instanceof BudgetExceededError
          ? 'the budget (--max-cost / --max-tokens) was reached'
          : 'it was interrupted';
      io.stderr(`generation stopped early because ${why}; ${resume}\n`);
      return EXIT.stoppedEarly;
    }
    if (error instanceof ProviderError) {
      io.stderr(`confidant: a datagen call failed: ${error.message}; ${resume}\n`);
      return EXIT.internal;
    }
    throw error;
  } finally {
    models.close();
  }
}

function isStop(error: unknown): boolean {
  return stopsRun(error);
}
