import { resolve } from 'node:path';
import type { Command } from 'commander';
import { resolveDataDir } from '../../datasets/index.js';
import { PlanValidationError } from '../../spec/errors.js';
import { findSuite, suiteRegistry } from '../../suites/registry.js';
import { buildPlan, type RunFlags, readConfigFile } from '../build-plan.js';
import { createRunStore } from '../create-run-store.js';
import { executeRun, resolvePlanModels } from '../execute-run.js';
import { planWarnings } from '../plan-warnings.js';
import { preflightTargets, runPreflight } from '../preflight.js';
import { prepareRun, resolveCacheDir } from '../prepare-run.js';
import type { CommandContext } from '../program.js';
import { resumeCommand, whileLocked } from '../run-lock-session.js';
import { runHelpAfter, runHelpConfiguration, suiteFlagHelp } from '../suite-help.js';
import { withPreset } from '../with-preset.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

type RunCommandFlags = Omit<RunFlags, 'suiteFlags'> & {
  out?: string;
  dataDir?: string;
  cacheDir?: string;
  config?: string;
  preset?: string;
  failOnError?: boolean;
  preflight?: boolean;
} & Record<string, unknown>;

/** Suite flags of every registered suite, each declared once (e.g. `--tier`). */
export function suiteFlagDeclarations(): Array<{ flag: string; key: string; suites: string[] }> {
  const declarations = new Map<string, { flag: string; key: string; suites: string[] }>();
  for (const suite of suiteRegistry) {
    for (const flag of suite.flags ?? []) {
      const existing = declarations.get(flag.flag);
      if (existing) existing.suites.push(suite.id);
      else declarations.set(flag.flag, { ...flag, suites: [suite.id] });
    }
  }
  return [...declarations.values()];
}

const camel = (flag: string) =>
  flag.replace(/^--/, '').replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** `confidant run <suite>`: evaluates a suite and prints the run directory last. */
export function registerRun({ program, context }: { program: Command; context: CommandContext }): void {
  const command = program
    .command('run')
    .description('Run a suite; the last line of stdout is the run directory.')
    .argument('<suite>', `suite id (${suiteRegistry.map((suite) => suite.id).join(', ')})`)
    .option('-m, --model <spec>', 'model under test, or role=spec (repeatable; repeat judge= for an ensemble)', collect)
    .option(
      '--grid <role=specs>',
      'seat model grid, e.g. agent-a=openai:gpt-5.1,anthropic:claude-sonnet-4-5 (repeatable; every combination runs)',
      collect,
    )
    .option(
      '--model-setting <role.key=value>',
      'per-role sampling setting, e.g. agent.temperature=0 (repeatable)',
      collect,
    )
    .option('--defense <id>', 'defense to apply (repeatable, in order; default vanilla)', collect)
    .option('--set <key=value>', 'suite option (repeatable)', collect)
    .option('--epochs <k>', 'samples per scenario (default 1)')
    .option('--limit <n>', 'only the first n scenarios')
    .option('--sample-ids <ids>', 'only these sample ids (comma-separated)')
    .option('--seed <s>', 'run seed (default 0)')
    .option('--shard <i/n>', 'run only shard i of n')
    .option('--concurrency <n>', 'samples in flight (default 4)')
    .option('--max-connections <n>', 'concurrent requests per endpoint (default 8)')
    .option('--max-retries <n>', 'retries per model call (default 5)')
    .option('--no-cache', 'do not read cached responses (new responses are still cached)')
    .option('--cache-dir <dir>', 'response cache directory')
    .option('--max-cost <usd>', 'stop cleanly once this many US dollars are spent')
    .option('--max-tokens <n>', 'stop cleanly once this many tokens are used')
    .option('--data-dir <dir>', 'dataset directory')
    .option('--out <dir>', 'where run directories go (default ./runs)')
    .option('--config <file>', 'JSON file with any of these flags')
    .option('--preset <id>', "start from one of the suite's named option sets (see confidant list presets)")
    .option('--fail-on-error', 'exit with code 4 when samples errored')
    .option('--no-preflight', 'skip the check that every model endpoint answers before the first sample');
  const suiteFlags = suiteFlagDeclarations();
  for (const flag of suiteFlags) {
    command.option(`${flag.flag} <value>`, suiteFlagHelp(flag));
  }
  command.addHelpText('after', ({ command: parsed }) => runHelpAfter(parsed.args));
  command.configureHelp(runHelpConfiguration);
  command.action(async (suiteId: string, flags: RunCommandFlags) => {
    const { io } = context;
    const suite = findSuite(suiteId);
    const given: Record<string, string> = {};
    for (const flag of suiteFlags) {
      const value = flags[camel(flag.flag)];
      if (typeof value !== 'string') continue;
      if (!flag.suites.includes(suite.id)) {
        throw new PlanValidationError(`${flag.flag} is an option of ${flag.suites.join(', ')}, not of ${suite.id}`);
      }
      given[flag.key] = value;
    }
    const configPath = flags.config ? resolve(io.cwd, flags.config) : undefined;
    const fileConfig = configPath ? readConfigFile(configPath) : {};
    const { config, flagModels } = withPreset({
      suite,
      presetId: flags.preset,
      config: fileConfig,
      flagModels: flags.model,
    });
    const plan = buildPlan({ suite, flags: { ...flags, model: flagModels, suiteFlags: given }, config });
    const dataDirFlag = flags.dataDir ?? config.dataDir;
    const dataDir = resolveDataDir({
      flag: dataDirFlag === undefined ? undefined : resolve(io.cwd, dataDirFlag),
      env: io.env,
      home: io.home,
    });
    const prepared = await prepareRun({ plan, dataDir });
    const cache = {
      dir: resolve(io.cwd, resolveCacheDir({ flag: flags.cacheDir ?? config.cacheDir, env: io.env, home: io.home })),
      reads: plan.cache,
    };
    for (const warning of planWarnings({ plan, prepared })) io.stderr(`warning: ${warning}\n`);
    if (flags.preflight !== false) await runPreflight({ io, targets: preflightTargets(prepared) });
    const models = await resolvePlanModels({ io, plan, prepared, cache });
    let created: Awaited<ReturnType<typeof createRunStore>>;
    try {
      created = await createRunStore({
        outDir: resolve(io.cwd, flags.out ?? config.out ?? 'runs'),
        plan,
        prepared,
        models: models.describe(),
        invocation: {
          cwd: io.cwd,
          dataDir,
          cacheDir: cache.dir,
          ...(configPath === undefined ? {} : { config: { path: configPath, contents: fileConfig } }),
        },
      });
    } catch (error) {
      models.close();
      throw error;
    }
    const { store, lock } = created;
    io.stderr(`run directory: ${store.location} (resume with: ${resumeCommand(store.location)})\n`);
    context.outcome.exitCode = await whileLocked({
      lock,
      work: () =>
        executeRun({
          io,
          plan,
          prepared,
          store,
          models,
          failOnError: flags.failOnError === true,
        }),
    });
  });
}
