import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { resolveDataDir } from '../../datasets/index.js';
import { PlanValidationError } from '../../spec/errors.js';
import type { RunHeader } from '../../spec/run-record.js';
import { DirectoryRunStore } from '../../store/index.js';
import type { CliIo } from '../cli-io.js';
import { executeRun, resolvePlanModels } from '../execute-run.js';
import { addFlagOptions, flagsFromCommandLine } from '../flag-schema.js';
import { planWarnings } from '../plan-warnings.js';
import { preflightTargets, runPreflight } from '../preflight.js';
import { prepareRun, resolveCacheDir } from '../prepare-run.js';
import type { CommandContext } from '../program.js';
import {
  applyResumeOverrides,
  describeResumeChanges,
  REFUSED_RESUME_FLAGS,
  type RefusedResumeFlag,
  refuseResumeFlags,
} from '../resume-overrides.js';
import { type RunFlagValues, runFlagSchema } from '../run-flags.js';
import { lockRunDirectory, resumeCommand, whileLocked } from '../run-lock-session.js';
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
  addFlagOptions({ command, schema: runFlagSchema, name: 'resume' });
  const suiteRefusals: RefusedResumeFlag[] = suiteFlagDeclarations().map((flag) => ({
    flag: flag.flag,
    key: camel(flag.flag),
    why: `it sets suite option ${flag.key}, which defines what the run measures`,
  }));
  for (const entry of suiteRefusals) command.addOption(command.createOption(`${entry.flag} <value>`).hideHelp());
  const refused = [...REFUSED_RESUME_FLAGS, ...suiteRefusals];
  command.action(async (runDir: string, options: Record<string, unknown>, self: Command) => {
    const { io } = context;
    const store = new DirectoryRunStore(resolve(io.cwd, runDir));
    const header = await store.readHeader();
    refuseResumeFlags({ flags: options, refused, suite: header.suite.id });
    const flags = flagsFromCommandLine({ schema: runFlagSchema, name: 'resume', command: self });
    const lock = await lockRunDirectory({ io, store, command: 'confidant resume' });
    context.outcome.exitCode = await whileLocked({
      lock,
      work: () => resumeRun({ io, store, header, flags }),
    });
  });
}

/** Resumes a locked run: the recorded settings, the safe overrides, the same checks as `run`. */
async function resumeRun({
  io,
  store,
  header,
  flags,
}: {
  io: CliIo;
  store: DirectoryRunStore;
  header: RunHeader;
  flags: ResumeFlags;
}): Promise<number> {
  const { plan, changed } = applyResumeOverrides({ plan: header.plan, flags });
  const recorded = header.invocation;
  const dataDir =
    flags.dataDir !== undefined
      ? resolve(io.cwd, flags.dataDir)
      : (recorded?.dataDir ?? resolveDataDir({ env: io.env, home: io.home }));
  const cacheDir =
    flags.cacheDir !== undefined
      ? resolve(io.cwd, flags.cacheDir)
      : (recorded?.cacheDir ?? resolve(io.cwd, resolveCacheDir({ env: io.env, home: io.home })));
  if (recorded && dataDir !== recorded.dataDir) changed.dataDir = { from: recorded.dataDir, to: dataDir };
  if (recorded && cacheDir !== recorded.cacheDir) changed.cacheDir = { from: recorded.cacheDir, to: cacheDir };
  // Relative paths in the plan (e.g. --community ./mine) meant the directory the run started in.
  if (recorded && recorded.cwd !== process.cwd() && existsSync(recorded.cwd)) process.chdir(recorded.cwd);
  const prepared = await prepareRun({ plan, dataDir });
  if (prepared.dataset.hash !== header.dataset.hash) {
    throw new PlanValidationError(
      `the dataset in ${dataDir} differs from the one this run started with (content hash ${header.dataset.hash}); point --data-dir at the original data, or start a new run`,
    );
  }
  if (prepared.samples.map((sample) => sample.id).join('\n') !== header.sampleIds.join('\n')) {
    throw new PlanValidationError(
      `the samples of ${header.suite.id} no longer match this run's plan (suite changed since version ${header.suite.version}); start a new run`,
    );
  }
  for (const warning of planWarnings({ plan, prepared })) io.stderr(`warning: ${warning}\n`);
  if (flags.preflight !== false) await runPreflight({ io, targets: preflightTargets(prepared) });
  const models = await resolvePlanModels({ io, plan, prepared, cache: { dir: cacheDir, reads: plan.cache } });
  try {
    const hasChanges = Object.keys(changed).length > 0;
    if (hasChanges || recorded === undefined) {
      await store.writeHeader({
        ...header,
        plan,
        models: models.describe(),
        // Headers from before `invocation` existed learn it from the first resume that works.
        invocation: { ...(recorded ?? { cwd: io.cwd }), dataDir, cacheDir },
        ...(hasChanges ? { resumes: [...(header.resumes ?? []), { at: new Date().toISOString(), changed }] } : {}),
      });
    }
    if (hasChanges) io.stderr(`resume overrides: ${describeResumeChanges(changed)} (recorded in header.json)\n`);
  } catch (error) {
    models.close();
    throw error;
  }
  io.stderr(`run directory: ${store.location} (resume with: ${resumeCommand(store.location)})\n`);
  return executeRun({
    io,
    plan,
    prepared,
    store,
    models,
    retryErrors: flags.retryErrors === true,
    failOnError: flags.failOnError === true,
  });
}
