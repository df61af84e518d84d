import { homedir } from 'node:os';
import type { CliIo } from './cli-io.js';
import { versionOnly } from './version-only.js';

/**
 * Binds the CLI to the real process and runs the command line in `process.argv`: Ctrl-C and
 * SIGTERM stop in-flight work (twice: at once), output goes to the process's streams and the exit
 * code to `process.exitCode`. Everything testable lives in run-cli.ts. Called by main.ts (from
 * the sources) and by the bundled CLI's loader (bundled-main.ts).
 */
export async function startCli(): Promise<void> {
  const controller = new AbortController();
  let interrupts = 0;
  const onSignal = () => {
    interrupts += 1;
    if (interrupts > 1) process.exit(130);
    process.stderr.write('\nstopping: finishing in-flight work (press Ctrl-C again to quit at once)\n');
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const io: CliIo = {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
    home: homedir(),
    isTTY: Boolean(process.stderr.isTTY),
    signal: controller.signal,
  };
  // `--version` alone needs only the package version: answer it before loading the commands.
  if (versionOnly(process.argv)) {
    const { readPackageVersion } = await import('../runner/package-info.js');
    process.stdout.write(`${readPackageVersion()}\n`);
  } else {
    const { runCli } = await import('./run-cli.js');
    process.exitCode = await runCli({ argv: process.argv, io });
  }
}
