import { rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { buildSummary, parseSuiteOptions, planSuiteOptions, whileLocked } from '../../runner/index.js';
import {
  createRunDirectory,
  createRunId,
  DirectoryRunStore,
  mergeRuns,
  readRunLock,
  refuseHalfWrittenMerge,
} from '../../store/index.js';
import { MERGE_INCOMPLETE_MARKER } from '../../store/merge-runs.js';
import { findSuite } from '../../suites/registry.js';
import type { CommandContext } from '../program.js';
import { lockRunDirectory } from '../run-lock-session.js';

/** `confidant merge <run-dir…> --out <dir>`: joins the shards of one run. */
export function registerMerge({ program, context }: { program: Command; context: CommandContext }): void {
  program
    .command('merge')
    .description('Join the shards of one run; the last line of stdout is the merged run directory.')
    .argument('<run-dirs...>', 'the shard run directories')
    .option('--out <dir>', 'where the merged run directory goes (default ./runs)')
    .action(async (runDirs: string[], flags: { out?: string }) => {
      const { io } = context;
      for (const dir of runDirs) refuseHalfWrittenMerge(resolve(io.cwd, dir));
      const sources = runDirs.map((dir) => new DirectoryRunStore(resolve(io.cwd, dir)));
      const first = await sources[0]?.readHeader();
      if (!first) return;
      for (const source of sources) {
        const holder = await readRunLock(source.location);
        if (holder) {
          io.stderr(
            `warning: ${source.location} is being written by PID ${holder.pid} on host ${holder.host} (${holder.command}, since ${holder.startedAt}); the merge holds only the records written so far\n`,
          );
        }
      }
      const suite = findSuite(first.suite.id);
      const options = parseSuiteOptions({ suite, raw: planSuiteOptions({ suite, plan: first.plan }) });
      const now = new Date();
      const { directory, runId } = await createRunDirectory({
        outDir: resolve(io.cwd, flags.out ?? 'runs'),
        runId: createRunId({ now, suite: suite.id, planHash: first.planHash }),
      });
      const target = new DirectoryRunStore(directory);
      // Until the summary is written the directory says it is incomplete (a kill -9 leaves the marker).
      const marker = join(directory, MERGE_INCOMPLETE_MARKER);
      await writeFile(marker, 'confidant merge in progress\n');
      const lock = await lockRunDirectory({ io, store: target, command: 'confidant merge' });
      const summary = await whileLocked({
        lock,
        work: async () => {
          const merged = await mergeRuns({ sources, target, runId, now });
          const built = buildSummary({
            runId,
            suite,
            options,
            planned: merged.header.sampleIds,
            records: merged.history,
            now,
          });
          await target.writeSummary(built);
          await rm(marker, { force: true });
          return built;
        },
      });
      io.stderr(
        `merged ${sources.length} runs: ${summary.counts.success} ok, ${summary.counts.error} errored, ${summary.counts.missing} missing of ${summary.counts.planned}\n`,
      );
      io.stdout(`${directory}\n`);
    });
}
