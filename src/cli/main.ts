#!/usr/bin/env node
import { homedir } from 'node:os';
import type { CliIo } from './cli-io.js';

// The executable entry: binds the CLI to the real process. Everything testable lives in run-cli.ts.
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
const [, , first, ...rest] = process.argv;
if ((first === '--version' || first === '-V') && rest.length === 0) {
  const { readPackageVersion } = await import('../runner/package-info.js');
  process.stdout.write(`${readPackageVersion()}\n`);
} else {
  const { runCli } = await import('./run-cli.js');
  process.exitCode = await runCli({ argv: process.argv, io });
}
