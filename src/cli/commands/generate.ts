import type { Command } from 'commander';
import type { CommandContext } from '../program.js';

/**
 * `confidant generate <suite>`: one subcommand per registered generator (`suites/generator-registry.ts`),
 * its flags generated from the generator's flag schema, plus `--out` and the model flags every
 * generation shares. Every datagen call is recorded in `<out>/.generate/run` (a run directory,
 * `kind: generation`). Exit 0 when everything was written, 4 when some units were rejected, 2
 * when nothing could be generated (or the flags are wrong), 3 when stopped early (budget or Ctrl-C).
 * The subcommands are declared only when the command line is a `generate` one: the generators and
 * their flag schemas are loaded for it beforehand (`preloadCommandLine`), and no other command loads them.
 */
export function registerGenerate({ program, context }: { program: Command; context: CommandContext }): void {
  const generate = program.command('generate').description("Generate a suite's data with a datagen model.");
  const preloaded = context.preloaded.generate;
  if (preloaded === undefined) return;
  for (const generator of preloaded.generators) {
    preloaded.registerGenerator({ generate, generator, context });
  }
}
