import type { Command } from 'commander';
import { defenseRegistry } from '../../defenses/registry.js';
import { providerRegistry } from '../../models/index.js';
import { PlanValidationError } from '../../spec/errors.js';
import { suiteRegistry } from '../../suites/registry.js';
import type { CommandContext } from '../program.js';

type Listing = { title: string; rows: Array<{ name: string; description: string }> };

const listings: Record<string, () => Listing> = {
  suites: () => ({
    title: 'Suites',
    rows: suiteRegistry.map((suite) => ({
      name: suite.id,
      description: `${suite.description}${suite.flags?.length ? ` Flags: ${suite.flags.map((flag) => flag.flag).join(', ')}.` : ''}`,
    })),
  }),
  providers: () => ({
    title: 'Providers (model spec: provider:model[@baseURL[,baseURL…]])',
    rows: providerRegistry.map((provider) => ({ name: provider.id, description: provider.description })),
  }),
  defenses: () => ({
    title: 'Defenses (--defense)',
    rows: defenseRegistry.map((entry) => ({
      name: entry.usage,
      description: `${entry.description}${entry.aliases.length ? ` Alias: ${entry.aliases.join(', ')}.` : ''}`,
    })),
  }),
  judges: () => ({
    title: 'Judges (by suite, with default options)',
    rows: suiteRegistry.flatMap((suite) => {
      const defaults = suite.options.safeParse({});
      if (!defaults.success) return [{ name: suite.id, description: 'judges depend on the suite options' }];
      const judges = suite.judges(defaults.data);
      return judges.length === 0
        ? [{ name: suite.id, description: 'deterministic scoring only' }]
        : judges.map((judge) => ({
            name: `${suite.id}/${judge.id}@${judge.version}`,
            description: judge.templateSha256,
          }));
    }),
  }),
};

/** `confidant list [suites,providers,defenses,judges]`: what is registered, one line each. */
export function registerList({ program, context }: { program: Command; context: CommandContext }): void {
  program
    .command('list')
    .description('List registered suites, providers, defenses and judges.')
    .argument('[what]', `comma-separated: ${Object.keys(listings).join(',')}`, Object.keys(listings).join(','))
    .action((what: string) => {
      const names = what.split(',').map((name) => name.trim());
      for (const name of names) {
        const listing = listings[name];
        if (!listing) {
          throw new PlanValidationError(`cannot list '${name}': choose from ${Object.keys(listings).join(', ')}`);
        }
        const { title, rows } = listing();
        const width = Math.max(...rows.map((row) => row.name.length), 4);
        context.io.stdout(
          `${title}\n${rows.map((row) => `  ${row.name.padEnd(width)}  ${row.description}`).join('\n')}\n\n`,
        );
      }
    });
}
