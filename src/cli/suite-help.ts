import { Help, Option } from 'commander';
import { loadedSuite, suiteRegistry } from '../suites/registry.js';
import type { Suite } from '../suites/suite.js';

/**
 * What drawing a named suite's help needs (`suite-options-help.ts`, which walks zod schemas):
 * `preloadCommandLine` loads it only for a help request that names a suite, so other help loads no zod.
 */
export type SuiteHelpModule = typeof import('./suite-options-help.js');

/**
 * The text after `confidant run --help`: the named suite's options when the arguments name one
 * (`run pac --help`), otherwise where to find them. Suite flags mean different things in
 * different suites (`--split`), so their meaning is shown per suite.
 */
export function runHelpAfter(args: readonly string[], suiteHelp: SuiteHelpModule | undefined): string {
  const suite = namedSuite(args);
  if (suite !== undefined) return loaded(suiteHelp).suiteRunHelp(suite);
  return [
    '',
    'Suite flags (--tier, --split, …) are sugar for --set <key>=<value>, and their meaning depends on the suite:',
    `  confidant run <suite> --help     the suite's options, flags and presets (${suiteRegistry.map((each) => each.id).join(', ')})`,
    '  confidant list options <suite>   the same list of options',
    '  confidant list presets           ready-made option sets (--preset <id>)',
  ].join('\n');
}

/**
 * The suite the help arguments name (`run pac --help`), if any. Help is drawn synchronously, so
 * `runCli` loads the suites the command line names before parsing (`loadNamedSuites`).
 */
function namedSuite(args: readonly string[]): Suite | undefined {
  const entry = suiteRegistry.find((candidate) => args.includes(candidate.id));
  if (entry === undefined) return undefined;
  const suite = loadedSuite(entry.id);
  if (suite === undefined) throw new Error(`suite '${entry.id}' is named on the command line but was not loaded`);
  return suite;
}

function loaded(suiteHelp: SuiteHelpModule | undefined): SuiteHelpModule {
  if (suiteHelp === undefined) throw new Error('a suite is named on the command line but its help was not loaded');
  return suiteHelp;
}

/**
 * Help settings for `run`: when the arguments name a suite, the other suites' flags are hidden
 * and the suite's own flags are described by its schema, so `confidant run pac --help` shows
 * what `--split` means in pac.
 */
export function runHelpConfiguration(suiteHelp: SuiteHelpModule | undefined): Partial<Help> {
  return {
    visibleOptions(this: Help, cmd): Option[] {
      const options = Help.prototype.visibleOptions.call(this, cmd);
      const suite = namedSuite(cmd.args);
      if (suite === undefined) return options;
      const { suiteOptionDocs, typeLine } = loaded(suiteHelp);
      const docs = suiteOptionDocs(suite);
      const suiteFlags = new Set(suiteRegistry.flatMap((each) => (each.flags ?? []).map((flag) => flag.flag)));
      return options.flatMap((option) => {
        if (option.long === undefined || !suiteFlags.has(option.long)) return [option];
        const doc = docs.find((candidate) => candidate.flag === option.long);
        if (doc === undefined) return [];
        return [new Option(option.flags, `${doc.description ?? typeLine(doc)} (same as --set ${doc.key}=…)`)];
      });
    },
  };
}

/**
 * The help of a suite flag declared once for every suite that has it: what it sets, from the
 * registry entry (no suite is loaded); generic when several suites share the flag.
 */
export function suiteFlagHelp({ flag, key, suites }: { flag: string; key: string; suites: readonly string[] }): string {
  const only = suites.length === 1 ? suiteRegistry.find((suite) => suite.id === suites[0]) : undefined;
  const meaning = only?.flags.find((candidate) => candidate.key === key);
  if (only !== undefined && meaning !== undefined) {
    return `${only.id}: ${meaning.description} (same as --set ${key}=…)`;
  }
  return `same as --set ${key}=… in ${suites.join(', ')}; what ${flag} means differs per suite: confidant run <suite> --help`;
}
