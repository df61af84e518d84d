import type { Command } from 'commander';
import type { startViewServer } from '../../reports/html/view-server.js';
import { PlanValidationError } from '../../spec/errors.js';
import { applyHeapPolicy } from '../heap-policy.js';
import type { CommandContext } from '../program.js';

/** The viewer's default port. */
export const VIEW_PORT = 7576;

/** `confidant view <run-dir…|runs-dir>`: the HTML report app served on 127.0.0.1, samples read on demand. */
export function registerView({ program, context }: { program: Command; context: CommandContext }): void {
  program
    .command('view')
    .description(
      'Browse runs in a web page on 127.0.0.1: overview, metrics with intervals, charts, samples with transcripts and judge exchanges, comparisons. Run directories are only read.',
    )
    .argument('<run-dirs...>', 'run directories, or a folder of runs (e.g. runs/)')
    .option('--port <port>', `port on 127.0.0.1 (0 picks a free one)`, String(VIEW_PORT))
    .action(async (args: string[], flags: { port: string }) => {
      const { io } = context;
      const port = Number(flags.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) {
        throw new PlanValidationError(`--port must be a whole number from 0 to 65535, not '${flags.port}'`);
      }
      const [{ startViewServer }, { expandRunDirs, readViewModel }] = await Promise.all([
        import('../../reports/html/view-server.js'),
        import('../read-view-model.js'),
      ]);
      // Reading every record promotes short-lived records: keep the heap near what is live.
      applyHeapPolicy({ execArgv: process.execArgv });
      const dirs = expandRunDirs({ args, cwd: io.cwd });
      const { model, runDirs } = await readViewModel({ dirs, cwd: io.cwd, mode: 'server' });
      let server: Awaited<ReturnType<typeof startViewServer>>;
      try {
        server = await startViewServer({ model, runDirs, port });
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === 'EADDRINUSE') {
          throw new PlanValidationError(`port ${port} on 127.0.0.1 is in use: pick another with --port`, {
            cause: error,
          });
        }
        throw error;
      }
      io.stdout(
        `confidant view: ${runDirs.length} run${runDirs.length === 1 ? '' : 's'} at ${server.url} (Ctrl-C stops)\n`,
      );
      await new Promise<void>((resolve) => {
        if (io.signal.aborted) resolve();
        else io.signal.addEventListener('abort', () => resolve(), { once: true });
      });
      await server.close();
    });
}
