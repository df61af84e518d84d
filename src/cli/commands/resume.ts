import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { RunHeader } from '../../spec/run-record.js';
import type { CliIo } from '../cli-io.js';
import { addFlagOptions } from '../flag-meta.js';
import type { CommandContext } from '../program.js';
import {
  REFUSED_RESUME_FLAGS,
  type RefusedResumeFlag,
  refuseResumeFlags,
  resumeOverridesOf,
} from '../resume-overrides.js';
import { runFlagTable } from '../run-flag-table.js';
import type { RunFlagValues } from '../run-flags.js';
import { camel, suiteFlagDeclarations } from './run.js';

/** The flags `resume` takes (the `resume` flags of `runFlagSchema`). */
type ResumeFlags = RunFlagValues;

/** `confidant resume <run-dir>`: runs the samples that have no record yet. */
export function registerResume({ program, context }: { program: Command; context: CommandContext }): void {
  const command = program
    .command('resume')
    .description(
      'Finish an interrupted run without redoing finished samples. Needs no other flag: the run directory records how it was started.',
    )
    .argument('<run-dir>', 'the run directory');
  // The flags of `run` that define the plan are declared (hidden) only to refuse them with a reason.
  addFlagOptions({ command, flags: runFlagTable, name: 'resume' });
  const suiteRefusals: RefusedResumeFlag[] = suiteFlagDeclarations().map((flag) => ({
    flag: flag.flag,
    key: camel(flag.flag),
    why: `it sets suite option ${flag.key}, which defines what the run measures`,
  }));
  for (const entry of suiteRefusals) command.addOption(command.createOption(`${entry.flag} <value>`).hideHelp());
  const refused = [...REFUSED_RESUME_FLAGS, ...suiteRefusals];
  command.action(async (runDir: string, options: Record<string, unknown>, self: Command) => {
    const { io } = context;
    const location = resolve(io.cwd, runDir);
    const [{ DirectoryRunStore }, { refuseHalfWrittenMerge }, { flagsFromCommandLine }, { runFlagSchema }] =
      await Promise.all([
        import('../../store/index.js'),
        import('../../store/merge-runs.js'),
        import('../flag-schema.js'),
        import('../run-flags.js'),
      ]);
    refuseHalfWrittenMerge(location);
    const header = await new DirectoryRunStore(location).readHeader();
    refuseResumeFlags({ flags: options, refused, suite: header.suite.id });
    const flags = flagsFromCommandLine({ schema: runFlagSchema, name: 'resume', command: self });
    context.outcome.exitCode = await resumeRun({ io, location, header, flags });
  });
}

/** Resumes a run through `resume`: the recorded settings, the safe overrides, the same checks as `run`. */
async function resumeRun({
  io,
  location,
  header,
  flags,
}: {
  io: CliIo;
  location: string;
  header: RunHeader;
  flags: ResumeFlags;
}): Promise<number> {
  // Loaded on first use, not by every command's start-up.
  const [
    { resolveDataDir },
    { describeResumeChanges, resume },
    { compatibleClientOption },
    { executeRun },
    { fullValidation },
    { planWarnings },
    { preflightTargets, runPreflight },
    { continuedRunCacheDir },
    { lockTakeoverNote, resumeCommand },
  ] = await Promise.all([
    import('../../datasets/data-dir.js'),
    import('../../runner/index.js'),
    import('../compatible-client-option.js'),
    import('../execute-run.js'),
    import('../full-validation.js'),
    import('../plan-warnings.js'),
    import('../preflight.js'),
    import('../resolve-cache-dir.js'),
    import('../run-lock-session.js'),
  ]);
  const recorded = header.invocation;
  const dataDir =
    flags.dataDir !== undefined
      ? resolve(io.cwd, flags.dataDir)
      : (recorded?.dataDir ?? resolveDataDir({ env: io.env, home: io.home }));
  const cacheDir = continuedRunCacheDir({
    flag: flags.cacheDir,
    recorded: recorded?.cacheDir,
    cwd: io.cwd,
    env: io.env,
    home: io.home,
  });
  // Relative paths in the plan (e.g. --community ./mine) meant the directory the run started in.
  if (recorded && recorded.cwd !== process.cwd() && existsSync(recorded.cwd)) process.chdir(recorded.cwd);
  return executeRun({
    io,
    failOnError: flags.failOnError === true,
    run: (onProgress) =>
      resume({
        store: location,
        overrides: resumeOverridesOf(flags),
        retryErrors: flags.retryErrors === true,
        dataDir,
        cacheDir,
        cwd: io.cwd,
        env: io.env,
        ...compatibleClientOption(io.env),
        signal: io.signal,
        validate: fullValidation(io.env),
        onProgress,
        onLockTakeover: (holder) => io.stderr(lockTakeoverNote({ what: location, holder })),
        beforeRun: async (prepared) => {
          for (const warning of planWarnings({ plan: prepared.plan, prepared })) io.stderr(`warning: ${warning}\n`);
          if (flags.preflight !== false) await runPreflight({ io, targets: preflightTargets(prepared) });
        },
        onStart: ({ changed }) => {
          if (Object.keys(changed).length > 0) {
            io.stderr(`resume overrides: ${describeResumeChanges(changed)} (recorded in header.json)\n`);
          }
          io.stderr(`run directory: ${location} (resume with: ${resumeCommand(location)})\n`);
        },
      }),
  });
}
