import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { GENERATION_DIR } from '../../generation/index.js';
import { PlanValidationError } from '../../spec/errors.js';
import { generatePacScenarios, pacGenerationOutcome } from '../../suites/pac/generate/index.js';
import { EXIT } from '../cli-io.js';
import { addDatagenOptions, datagenCallLog, datagenFlagsOf, resolveDatagenModels } from '../datagen-models.js';
import { parseNonNegativeNumber, parsePositiveInteger } from '../parse-assignments.js';
import type { CommandContext } from '../program.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

type GeneratePacFlags = {
  domain?: string[];
  count?: string;
  policyType?: string;
  out?: string;
  seed?: string;
  agents?: string;
  maxAttempts?: string;
  maxParseRetries?: string;
  batchSize?: string;
  concurrency?: string;
};

/**
 * `confidant generate pac`: PAC-Bench scenarios in four checked stages (pacbench.md §11),
 * resumable. Exit 0 when every scenario was written, 4 when some were rejected, 2 when none
 * could be generated, 3 when stopped early (budget or Ctrl-C).
 */
export function registerGeneratePac({ generate, context }: { generate: Command; context: CommandContext }): void {
  addDatagenOptions(generate.command('pac'))
    .description(
      'Generate PAC-Bench scenarios into --out (use <dataDir>/pacbench/scenarios to run them with --data-dir <dataDir>); ' +
        'rerun the same command to resume. The last line of stdout is the output folder.',
    )
    .option('--domain <name>', 'industry domain, e.g. "Banks" (repeatable; names may contain commas)', collect)
    .option('--count <n>', 'scenarios per domain and per policy type (default 1)')
    .option('--policy-type <t>', 'change, range or both (default both)')
    .option('--out <dir>', 'output folder (required; holds the resume journal in .generate/)')
    .option('--seed <n>', 'seed sent with every datagen request (default 0)')
    .option('--agents <n>', 'parties per scenario, 2-7 (default 2)')
    .option('--max-attempts <n>', 'tries per stage and agent before a unit is rejected (default 3)')
    .option('--max-parse-retries <n>', 'extra calls when a reply does not parse (default 2)')
    .option('--batch-size <n>', 'scenarios per stage-1 call (default 4)')
    .option('--concurrency <n>', 'datagen calls in flight (default 4)')
    .action(async (flags: GeneratePacFlags, self: Command) => {
      const { io } = context;
      if (flags.out === undefined) {
        io.stderr('confidant: generate pac needs --out <dir>: the folder to write (or resume)\n');
        context.outcome.exitCode = EXIT.userError;
        return;
      }
      const outDir = resolve(io.cwd, flags.out);
      const models = await resolveDatagenModels({ io, flags: datagenFlagsOf(self), command: 'generate pac' });
      try {
        const whole = (text: string | undefined, flag: string) =>
          text === undefined ? {} : { value: parsePositiveInteger({ text, flag }) };
        const set = <K extends string>(key: K, parsed: { value?: number }) =>
          parsed.value === undefined ? {} : ({ [key]: parsed.value } as Record<K, number>);
        const seed = flags.seed === undefined ? undefined : Number(flags.seed);
        if (seed !== undefined && !Number.isInteger(seed)) {
          throw new PlanValidationError(`--seed expects a whole number, got '${flags.seed}'`);
        }
        const result = await generatePacScenarios({
          domains: flags.domain ?? [],
          outDir,
          ...(flags.policyType === undefined ? {} : { policyTypes: parsePolicyTypes(flags.policyType) }),
          ...(seed === undefined ? {} : { seed }),
          ...set('count', whole(flags.count, '--count')),
          ...set('agents', whole(flags.agents, '--agents')),
          ...set('maxAttempts', whole(flags.maxAttempts, '--max-attempts')),
          ...(flags.maxParseRetries === undefined
            ? {}
            : {
                maxParseRetries: parseNonNegativeNumber({ text: flags.maxParseRetries, flag: '--max-parse-retries' }),
              }),
          ...set('batchSize', whole(flags.batchSize, '--batch-size')),
          ...set('concurrency', whole(flags.concurrency, '--concurrency')),
          models: models.factory({
            sampleId: 'generate:pac',
            epoch: 0,
            emit: datagenCallLog(join(outDir, GENERATION_DIR)),
            signal: io.signal,
          }),
          emit: (event) => {
            if (event.type === 'stage-failed') {
              io.stderr(
                `[${event.stage}] ${event.unit}${event.agent ? `/${event.agent}` : ''} attempt ${event.attempt} failed: ${event.reasons.slice(0, 2).join('; ')}\n`,
              );
            }
          },
          signal: io.signal,
        });
        for (const rejected of result.rejected)
          io.stderr(`rejected ${rejected.unit} (${rejected.stage}): ${rejected.reason}\n`);
        io.stderr(
          `pac: ${result.written.length} scenario(s) written, ${result.resumed} resumed, ${result.rejected.length} rejected, ${result.calls} datagen calls\n`,
        );
        const outcome = pacGenerationOutcome(result);
        if (outcome === 'failed') {
          io.stderr('confidant: generate pac wrote no scenario: every unit was rejected (see above)\n');
          context.outcome.exitCode = EXIT.userError;
          return;
        }
        io.stdout(`${result.outDir}\n`);
        context.outcome.exitCode = outcome === 'partial' ? EXIT.finishedWithErrors : EXIT.ok;
      } catch (error) {
        const name = error instanceof Error ? error.name : '';
        if (io.signal.aborted || name === 'BudgetExceededError' || name === 'RunInterruptedError') {
          io.stderr(
            `generation stopped early; rerun the same command to continue (journal in ${join(outDir, GENERATION_DIR)})\n`,
          );
          context.outcome.exitCode = EXIT.stoppedEarly;
          return;
        }
        throw error;
      } finally {
        models.close();
      }
    });
}

function parsePolicyTypes(text: string): Array<'change' | 'range'> {
  if (text === 'both') return ['change', 'range'];
  if (text === 'change' || text === 'range') return [text];
  throw new PlanValidationError(`--policy-type expects change, range or both, got '${text}'`);
}
