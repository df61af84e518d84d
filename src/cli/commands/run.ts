import { resolve } from 'node:path';
import type { Command } from 'commander';
import { MissingApiKeyError, PlanValidationError } from '../../spec/errors.js';
import { loadSuite, suiteRegistry } from '../../suites/registry.js';
import { addFlagOptions } from '../flag-meta.js';
import type { CommandContext } from '../program.js';
import { runFlagTable } from '../run-flag-table.js';
import { runHelpAfter, runHelpConfiguration, suiteFlagHelp } from '../suite-help.js';

/** Suite flags of every registered suite, each declared once (e.g. `--tier`). */
export function suiteFlagDeclarations(): Array<{ flag: string; key: string; suites: string[] }> {
  const declarations = new Map<string, { flag: string; key: string; suites: string[] }>();
  for (const suite of suiteRegistry) {
    for (const { flag, key } of suite.flags) {
      const existing = declarations.get(flag);
      if (existing) existing.suites.push(suite.id);
      else declarations.set(flag, { flag, key, suites: [suite.id] });
    }
  }
  return [...declarations.values()];
}

/** The commander attribute of a flag, e.g. `--lcars-form` → `lcarsForm`. */
export const camel = (flag: string) =>
  flag.replace(/^--/, '').replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** `confidant run <suite>`: evaluates a suite and prints the run directory last. */
export function registerRun({ program, context }: { program: Command; context: CommandContext }): void {
  const command = program
    .command('run')
    .description('Run a suite; the last line of stdout is the run directory.')
    .argument('<suite>', `suite id (${suiteRegistry.map((suite) => suite.id).join(', ')})`);
  addFlagOptions({ command, flags: runFlagTable, name: 'run' });
  const suiteFlags = suiteFlagDeclarations();
  for (const flag of suiteFlags) {
    command.option(`${flag.flag} <value>`, suiteFlagHelp(flag));
  }
  command.addHelpText('after', ({ command: parsed }) => runHelpAfter(parsed.args, context.preloaded.suiteHelp));
  command.configureHelp(runHelpConfiguration(context.preloaded.suiteHelp));
  command.action(async (suiteId: string, options: Record<string, unknown>, self: Command) => {
    const { io } = context;
    const suite = await loadSuite(suiteId);
    // What a run needs beyond its suite is loaded here, on first use, not at every command's start-up.
    const [
      { resolveDataDir },
      { createPriceTable },
      { estimatePlan },
      { evaluatePlan },
      { prepareRun },
      { checkPlanModels, planSettings },
      { flagsFromCommandLine },
      { runFlagSchema },
      { buildPlan, mergeRunFlags },
      { compatibleClientOption },
      { readConfigFile },
      { executeRun },
      { fullValidation },
      { planWarnings },
      { preflightTargets, runPreflight },
      { renderDryRun },
      { resolveCacheDir },
      { resumeCommand },
      { withPreset },
    ] = await Promise.all([
      import('../../datasets/data-dir.js'),
      import('../../models/price-table.js'),
      import('../../runner/estimate-plan.js'),
      import('../../runner/evaluate.js'),
      import('../../runner/prepare-run.js'),
      import('../../runner/resolve-plan-models.js'),
      import('../flag-schema.js'),
      import('../run-flags.js'),
      import('../build-plan.js'),
      import('../compatible-client-option.js'),
      import('../config-file.js'),
      import('../execute-run.js'),
      import('../full-validation.js'),
      import('../plan-warnings.js'),
      import('../preflight.js'),
      import('../render-dry-run.js'),
      import('../resolve-cache-dir.js'),
      import('../run-lock-session.js'),
      import('../with-preset.js'),
    ]);
    const given: Record<string, string> = {};
    for (const flag of suiteFlags) {
      const value = options[camel(flag.flag)];
      if (typeof value !== 'string') continue;
      if (!flag.suites.includes(suite.id)) {
        throw new PlanValidationError(`${flag.flag} is an option of ${flag.suites.join(', ')}, not of ${suite.id}`);
      }
      given[flag.key] = value;
    }
    const cli = flagsFromCommandLine({ schema: runFlagSchema, name: 'run', command: self });
    const configPath = cli.config === undefined ? undefined : resolve(io.cwd, cli.config);
    const config = configPath === undefined ? undefined : readConfigFile({ path: configPath, suite });
    const flags = withPreset({ suite, flags: mergeRunFlags({ config: config?.flags ?? {}, cli }) });
    const plan = buildPlan({ suite, flags, suiteFlags: given });
    const dataDir = resolveDataDir({
      flag: flags.dataDir === undefined ? undefined : resolve(io.cwd, flags.dataDir),
      env: io.env,
      home: io.home,
    });
    if (flags.dryRun === true) {
      const prepared = await prepareRun({ plan, dataDir });
      // What the run would refuse before its first call fails here too; a missing API key after
      // the plan, which is still worth seeing (its cost) before the key is set.
      const missingKeys = new Set<string>();
      checkPlanModels({ plan, prepared, env: io.env, onMissingKey: (error) => missingKeys.add(error.message) });
      const estimate = estimatePlan({
        suite: prepared.suite,
        options: prepared.options,
        scenarios: prepared.scenarios,
        samples: prepared.samples,
        defenses: prepared.defenses,
        bindings: prepared.modelBindings,
        settings: planSettings({ plan, prepared }),
        prices: createPriceTable(plan.prices === undefined ? {} : { overrides: plan.prices }),
      });
      for (const warning of planWarnings({ plan, prepared })) io.stderr(`warning: ${warning}\n`);
      io.stdout(renderDryRun({ plan, prepared, estimate }));
      if (missingKeys.size > 0) {
        throw new MissingApiKeyError(`this plan cannot run yet: ${[...missingKeys].join('; ')}`);
      }
      return;
    }
    const cacheDir = resolve(io.cwd, resolveCacheDir({ flag: flags.cacheDir, env: io.env, home: io.home }));
    context.outcome.exitCode = await executeRun({
      io,
      failOnError: flags.failOnError === true,
      run: (onProgress) =>
        evaluatePlan({
          plan,
          dataDir,
          outDir: resolve(io.cwd, flags.out ?? 'runs'),
          env: io.env,
          ...compatibleClientOption(io.env),
          cacheDir,
          invocation: {
            cwd: io.cwd,
            dataDir,
            cacheDir,
            ...(configPath === undefined || config === undefined
              ? {}
              : { config: { path: configPath, contents: config.contents } }),
          },
          signal: io.signal,
          validate: fullValidation(io.env),
          onProgress,
          beforeRun: async (prepared) => {
            for (const warning of planWarnings({ plan, prepared })) io.stderr(`warning: ${warning}\n`);
            if (flags.preflight !== false) await runPreflight({ io, targets: preflightTargets(prepared) });
          },
          onStart: ({ store }) =>
            io.stderr(`run directory: ${store.location} (resume with: ${resumeCommand(store.location)})\n`),
        }),
    });
  });
}
