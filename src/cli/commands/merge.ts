import { resolve } from 'node:path';
import type { Command } from 'commander';
import { applyHeapPolicy } from '../heap-policy.js';
import type { CommandContext } from '../program.js';
import { lockTakeoverNote } from '../run-lock-session.js';

/** `confidant merge <run-dir…> --out <dir>`: joins the shards of one run. */
export function registerMerge({ program, context }: { program: Command; context: CommandContext }): void {
  program
    .command('merge')
    .description('Join the shards of one run; the last line of stdout is the merged run directory.')
    .argument('<run-dirs...>', 'the shard run directories')
    .option('--out <dir>', 'where the merged run directory goes (default ./runs)')
    .action(async (runDirs: string[], flags: { out?: string }) => {
      const { io } = context;
      applyHeapPolicy({ execArgv: process.execArgv });
      const { mergeRunDirectories } = await import('../../runner/merge-run-directories.js');
      const { directory, summary } = await mergeRunDirectories({
        sources: runDirs.map((dir) => resolve(io.cwd, dir)),
        outDir: resolve(io.cwd, flags.out ?? 'runs'),
        onBusySource: ({ dir, holder }) =>
          io.stderr(
            `warning: ${dir} is being written by PID ${holder.pid} on host ${holder.host} (${holder.command}, since ${holder.startedAt}); the merge holds only the records written so far\n`,
          ),
        onLockTakeover: (holder) => io.stderr(lockTakeoverNote({ what: 'the merged directory', holder })),
      });
      io.stderr(
        `merged ${runDirs.length} runs: ${summary.counts.success} ok, ${summary.counts.error} errored, ${summary.counts.missing} missing of ${summary.counts.planned}\n`,
      );
      io.stdout(`${directory}\n`);
    });
}
