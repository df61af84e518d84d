import type { DataGenerator } from '../generation/generator.js';
import { loadGenerators } from '../suites/generator-registry.js';
import { loadSuite, suiteRegistry } from '../suites/registry.js';
import type { registerGenerator } from './generate-subcommand.js';
import type { SuiteHelpModule } from './suite-help.js';
import type { registerSweepSubcommands } from './sweep-subcommands.js';

/** The words that ask commander for help: it draws help synchronously, during the parse. */
const HELP_WORDS = new Set(['--help', '-h', 'help']);

/** What the command line needs loaded before commander declares the commands and parses. */
export type Preloaded = {
  /** The suites a help request names (`loadedSuite` finds them). */
  suites: string[];
  /** How the named suites' options are described (loaded only when `suites` is not empty). */
  suiteHelp?: SuiteHelpModule;
  /** For a `generate` command line: the generators and how to declare their subcommands. */
  generate?: { generators: DataGenerator[]; registerGenerator: typeof registerGenerator };
  /** For a `sweep` command line: how to declare the sweep subcommands. */
  sweep?: { registerSweepSubcommands: typeof registerSweepSubcommands };
};

/**
 * Loads, before parsing, what commander needs synchronously and only some command lines use, so
 * no other command line pays for it: the suites a help request names (`run pac --help`,
 * `help run pac`: their options are described from their schemas), the generators when a word
 * is `generate` (their subcommands and flags are declared from them), and the sweep subcommands
 * when a word is `sweep`. Commands with subcommands are listed the same either way in `--help`.
 */
export async function preloadCommandLine(argv: readonly string[]): Promise<Preloaded> {
  const words = argv.slice(2);
  const help = words.some((word) => HELP_WORDS.has(word));
  const suites = help ? suiteRegistry.filter((entry) => words.includes(entry.id)).map((entry) => entry.id) : [];
  const [suiteHelp, generate, sweep] = await Promise.all([
    suites.length > 0 ? import('./suite-options-help.js') : undefined,
    words.includes('generate')
      ? Promise.all([loadGenerators(), import('./generate-subcommand.js')]).then(([generators, module]) => ({
          generators,
          registerGenerator: module.registerGenerator,
        }))
      : undefined,
    words.includes('sweep') ? import('./sweep-subcommands.js') : undefined,
    ...suites.map((id) => loadSuite(id)),
  ]);
  return {
    suites,
    ...(suiteHelp === undefined ? {} : { suiteHelp }),
    ...(generate === undefined ? {} : { generate }),
    ...(sweep === undefined ? {} : { sweep: { registerSweepSubcommands: sweep.registerSweepSubcommands } }),
  };
}
