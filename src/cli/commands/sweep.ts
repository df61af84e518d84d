import type { Command } from 'commander';
import type { CommandContext } from '../program.js';

/**
 * `confidant sweep run|report|plan|merge`: a paper's table as one resumable job. The subcommands
 * are declared only when the command line is a `sweep` one (`preloadCommandLine` loads
 * `sweep-subcommands.ts` for it); no other command loads the sweep code.
 */
export function registerSweep({ program, context }: { program: Command; context: CommandContext }): void {
  const sweep = program
    .command('sweep')
    .description('Run a sweep file (axes of suites, models, defenses, …) as one resumable job, and report its table.');
  context.preloaded.sweep?.registerSweepSubcommands({ sweep, context });
}
