import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { LcArsParameters } from '../../export/privact/lc-ars-reward.js';
import { PROMPT_STYLES, type PromptStyle } from '../../export/privact/training-prompt.js';
import { PREFERENCE_FORMATS, type PreferenceFormat } from '../../export/write-preference-pairs.js';
import { PlanValidationError } from '../../spec/errors.js';
import { writeOutputFile } from '../output-file.js';
import type { CommandContext } from '../program.js';

type PreferenceFlags = {
  role?: string;
  threshold?: string;
  format: string;
  promptStyle: string;
  out: string;
  alpha?: string;
  beta?: string;
  b1?: string;
  b2?: string;
  lcarsForm?: string;
  splitValidation?: string;
  seed?: string;
};

/** A numeric flag: undefined when absent, a PlanValidationError naming the flag when not a number. */
function numberFlag(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value)) {
    throw new PlanValidationError(`${flag} expects a number, got '${text}'`);
  }
  return value;
}

function oneOf<T extends string>(value: string, allowed: readonly T[], flag: string): T {
  const found = allowed.find((candidate) => candidate === value);
  if (found === undefined) throw new PlanValidationError(`unknown ${flag} '${value}': use ${allowed.join(', ')}`);
  return found;
}

/** `confidant export preferences <run-dir…>`: PrivAct preference pairs from judged trees (no model calls). */
export function registerExport({ program, context }: { program: Command; context: CommandContext }): void {
  const exporter = program.command('export').description('Export training data from run directories.');
  exporter
    .command('preferences')
    .description(
      'PrivAct DPO preference pairs from privact-tree runs: LC-ARS rewards, mean values, sibling pairs at τ. ' +
        'Prints a summary on stderr and the written files on stdout.',
    )
    .argument('<run-dirs...>', 'privact-tree run directories (several: e.g. the shards of one build)')
    .requiredOption('--out <path>', 'output directory, or a .jsonl/.json file when one role is exported')
    .option(
      '--role <roles>',
      'roles to pair, comma-separated (default: the roles after the first stage, verifier,refiner for G>V>R)',
    )
    .option('--format <format>', `pairs format: ${PREFERENCE_FORMATS.join(', ')}`, 'trl')
    .option('--prompt-style <style>', `prompt of each pair: ${PROMPT_STYLES.join(' (default), ')}`, 'inference')
    .option('--threshold <tau>', "τ: children with value ≥ τ are chosen (default: the run's, 0.5)")
    .option('--alpha <n>', "LC-ARS α (default: the run's, 0.5)")
    .option('--beta <n>', "LC-ARS β (default: the run's, 2.0)")
    .option('--b1 <n>', "LC-ARS b1 (default: the run's, 0.0)")
    .option('--b2 <n>', "LC-ARS b2 (default: the run's, 0.45)")
    .option('--lcars-form <form>', "LC-ARS form: code or paper (default: the run's, code)")
    .option('--split-validation <fraction>', 'hold out this share of each role as a validation file (default 0)')
    .option('--seed <n>', 'seed of the validation shuffle (default 42)')
    .action(async (runDirs: string[], flags: PreferenceFlags) => {
      const { io } = context;
      const format: PreferenceFormat = oneOf(flags.format, PREFERENCE_FORMATS, '--format');
      const promptStyle: PromptStyle = oneOf(flags.promptStyle, PROMPT_STYLES, '--prompt-style');
      const roles = flags.role
        ?.split(',')
        .map((role) => role.trim())
        .filter((role) => role !== '');
      const lcars: Partial<LcArsParameters> = {};
      for (const key of ['alpha', 'beta', 'b1', 'b2'] as const) {
        const value = numberFlag(flags[key], `--${key}`);
        if (value !== undefined) lcars[key] = value;
      }
      if (flags.lcarsForm !== undefined)
        lcars.form = oneOf(flags.lcarsForm, ['code', 'paper'] as const, '--lcars-form');
      const threshold = numberFlag(flags.threshold, '--threshold');
      const fraction = numberFlag(flags.splitValidation, '--split-validation');
      const seed = numberFlag(flags.seed, '--seed');
      // The export and store code is loaded on first use, not by every command's start-up.
      const [
        { exportPreferences, formatExportSummary, preferencePaths },
        { DirectoryRunStore, refuseHalfWrittenMerge },
      ] = await Promise.all([import('../../export/privact/export-preferences.js'), import('../../store/index.js')]);
      const result = await exportPreferences({
        stores: runDirs.map((dir) => {
          refuseHalfWrittenMerge(resolve(io.cwd, dir));
          return new DirectoryRunStore(resolve(io.cwd, dir));
        }),
        ...(roles === undefined ? {} : { roles }),
        format,
        promptStyle,
        lcars,
        ...(threshold === undefined ? {} : { threshold }),
        ...(fraction === undefined ? {} : { validationFraction: fraction }),
        ...(seed === undefined ? {} : { seed }),
      });
      const paths = preferencePaths({
        out: resolve(io.cwd, flags.out),
        roles: result.roles.map((entry) => entry.role),
        format,
      });
      const written: string[] = [];
      const write = (path: string, text: string) => {
        writeOutputFile({ path, text, flag: '--out' });
        written.push(path);
      };
      for (const entry of result.roles) {
        const target = paths.byRole.get(entry.role);
        if (target === undefined) continue;
        write(target.pairs, entry.train.pairs);
        write(target.meta, entry.train.meta);
        if (entry.validation) {
          write(target.validationPairs, entry.validation.pairs);
          write(target.validationMeta, entry.validation.meta);
        }
      }
      write(paths.manifest, result.manifest);
      io.stderr(formatExportSummary(result.summary));
      for (const path of written) io.stdout(`${path}\n`);
    });
}
