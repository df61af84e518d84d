import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import { addFlagOptions } from '../flag-meta.js';
import type { CommandContext } from '../program.js';
import { runFlagTable } from '../run-flag-table.js';

/**
 * `confidant rescore <run-dir>`: the run's stored outputs scored anew (another judge, other judge
 * options) into a new run directory, with no agent, prober or defense call.
 */
export function registerRescore({ program, context }: { program: Command; context: CommandContext }): void {
  const command = program
    .command('rescore')
    .description(
      "Score a run's stored outputs anew (another judge model, other judge options) into a new run directory, without calling the agent, prober or defenses; the header records the source run and what changed, and the new run resumes like any run. The last line of stdout is the new run directory.",
    )
    .argument('<run-dir>', 'the run directory whose outputs are scored (only read)');
  addFlagOptions({ command, flags: runFlagTable, name: 'rescore' });
  command.action(async (runDir: string, _options: Record<string, unknown>, self: Command) => {
    const { io } = context;
    // Loaded on first use, not by every command's start-up.
    const [
      { flagsFromCommandLine },
      { runFlagSchema },
      { parseRoleBinding },
      { rescore, scoringBindings },
      { DirectoryRunStore },
      { compatibleClientOption },
      { executeRun },
      { fullValidation },
      { nestModelSettings },
      { preflightTargets, runPreflight },
      { continuedRunCacheDir },
      { resumeOverridesOf },
      { resumeCommand },
    ] = await Promise.all([
      import('../flag-schema.js'),
      import('../run-flags.js'),
      import('../../models/index.js'),
      import('../../runner/index.js'),
      import('../../store/index.js'),
      import('../compatible-client-option.js'),
      import('../execute-run.js'),
      import('../full-validation.js'),
      import('../parse-assignments.js'),
      import('../preflight.js'),
      import('../resolve-cache-dir.js'),
      import('../resume-overrides.js'),
      import('../run-lock-session.js'),
    ]);
    const source = resolve(io.cwd, runDir);
    const flags = flagsFromCommandLine({ schema: runFlagSchema, name: 'rescore', command: self });
    const header = await new DirectoryRunStore(source).readHeader();
    const dataDir =
      flags.dataDir !== undefined
        ? resolve(io.cwd, flags.dataDir)
        : (header.invocation?.dataDir ?? (header.dataset.hash === 'built-in' ? io.cwd : undefined));
    const cacheDir = continuedRunCacheDir({
      flag: flags.cacheDir,
      recorded: header.invocation?.cacheDir,
      cwd: io.cwd,
      env: io.env,
      home: io.home,
    });
    const { models: _moved, ...execution } = resumeOverridesOf(flags);
    context.outcome.exitCode = await executeRun({
      io,
      failOnError: flags.failOnError === true,
      run: (onProgress) =>
        rescore({
          source,
          outDir: flags.out === undefined ? dirname(source) : resolve(io.cwd, flags.out),
          models: (flags.model ?? []).map(parseRoleBinding),
          ...(flags.set === undefined ? {} : { suiteOptions: flags.set }),
          ...(flags.fidelity === undefined ? {} : { fidelity: flags.fidelity }),
          ...(flags.modelSetting === undefined ? {} : { modelSettings: nestModelSettings(flags.modelSetting) }),
          execution,
          ...(dataDir === undefined ? {} : { dataDir }),
          cacheDir,
          invocation: { cwd: io.cwd, dataDir: dataDir ?? io.cwd, cacheDir },
          env: io.env,
          ...compatibleClientOption(io.env),
          signal: io.signal,
          validate: fullValidation(io.env),
          onProgress,
          beforeRun: async (prepared) => {
            if (flags.preflight !== false) {
              // Only the scoring models are called: the others' endpoints may be long gone.
              await runPreflight({
                io,
                targets: preflightTargets({ modelBindings: scoringBindings(prepared.modelBindings) }),
              });
            }
          },
          onStart: ({ store, header: created }) => {
            const changed = Object.keys(created.rescoredFrom?.changed ?? {});
            io.stderr(
              `rescoring ${header.runId} (${changed.length === 0 ? 'same scoring' : `changed: ${changed.join(', ')}`}); no agent, prober or defense calls\n`,
            );
            io.stderr(`run directory: ${store.location} (resume with: ${resumeCommand(store.location)})\n`);
          },
        }),
    });
  });
}
