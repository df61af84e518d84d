import type { Command } from 'commander';
import { PlanValidationError } from '../../spec/errors.js';
import { loadSuite, loadSuites } from '../../suites/registry.js';
import type { CommandContext } from '../program.js';

/** What `confidant list` can list, in help order (the listings are in `list-listings.ts`). */
export const LISTING_NAMES = ['suites', 'options', 'presets', 'metrics', 'providers', 'defenses', 'judges'] as const;

/** One of {@link LISTING_NAMES}. */
export type ListingName = (typeof LISTING_NAMES)[number];

const isListingName = (name: string): name is ListingName => (LISTING_NAMES as readonly string[]).includes(name);

const DEFAULT_LISTINGS = 'suites,providers,defenses,judges';

/**
 * `confidant list [what] [suite] [--verbose]`: what is registered. `options`, `metrics` and
 * `presets` (and `suites --verbose`) are generated from the suites' schemas and definitions.
 */
export function registerList({ program, context }: { program: Command; context: CommandContext }): void {
  program
    .command('list')
    .description('List registered suites, providers, defenses and judges; options, metrics and presets of suites.')
    .argument('[what]', `comma-separated: ${LISTING_NAMES.join(',')}`, DEFAULT_LISTINGS)
    .argument('[suite]', 'only this suite (for suites, options, metrics, presets, judges)')
    .option('--verbose', 'with suites: every option (type, values, default, meaning) and preset')
    .action(async (what: string, suiteId: string | undefined, flags: { verbose?: boolean }) => {
      const suites = suiteId === undefined ? await loadSuites() : [await loadSuite(suiteId)];
      const { listings } = await import('../list-listings.js');
      const names = what.split(',').map((name) => name.trim());
      for (const name of names) {
        if (!isListingName(name)) {
          throw new PlanValidationError(`cannot list '${name}': choose from ${LISTING_NAMES.join(', ')}`);
        }
        context.io.stdout(listings[name]({ suites, verbose: flags.verbose === true }));
      }
    });
}
