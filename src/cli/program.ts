import { Command } from 'commander';
import { readPackageVersion } from '../runner/package-info.js';
import { type CliIo, EXIT } from './cli-io.js';
import { registerCompare } from './commands/compare.js';
import { registerData } from './commands/data.js';
import { registerDemo } from './commands/demo.js';
import { registerExport } from './commands/export.js';
import { registerGenerate } from './commands/generate.js';
import { registerList } from './commands/list.js';
import { registerMerge } from './commands/merge.js';
import { registerReport } from './commands/report.js';
import { registerRescore } from './commands/rescore.js';
import { registerResume } from './commands/resume.js';
import { registerRun } from './commands/run.js';
import { registerSweep } from './commands/sweep.js';
import { registerView } from './commands/view.js';
import type { Preloaded } from './preload-command-line.js';

/** What a command hands back to `runCli`. */
export type CommandOutcome = { exitCode: number };

/** Shared by every command's `register` function. */
export type CommandContext = { io: CliIo; outcome: CommandOutcome; preloaded: Preloaded };

/**
 * Builds the commander program with every command registered; commands set `outcome.exitCode`.
 * `preloaded` is what `preloadCommandLine` loaded for this command line (default: nothing).
 */
export function createProgram({ io, preloaded = { suites: [] } }: { io: CliIo; preloaded?: Preloaded }): {
  program: Command;
  outcome: CommandOutcome;
} {
  const outcome: CommandOutcome = { exitCode: EXIT.ok };
  const program = new Command('confidant')
    .description('Measure and harden the contextual privacy of LLM agents.')
    .version(readPackageVersion())
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout(text),
      writeErr: (text) => io.stderr(text),
      outputError: (text, write) => write(`confidant: ${text.replace(/^error: /, '')}`),
    });
  const context: CommandContext = { io, outcome, preloaded };
  for (const register of [
    registerRun,
    registerResume,
    registerRescore,
    registerMerge,
    registerReport,
    registerCompare,
    registerView,
    registerData,
    registerList,
    registerExport,
    registerDemo,
    registerGenerate,
    registerSweep,
  ]) {
    register({ program, context });
  }
  return { program, outcome };
}
