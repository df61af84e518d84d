import { runCli } from '../../src/cli/run-cli.js';
import type { CliResult } from './run-cli-process.js';

/**
 * Runs the CLI in this process with captured output: the same program `main.ts` runs, without
 * the cost of a child process. Use `run-cli-process.ts` where the real executable matters
 * (signals, exit codes of the process itself).
 */
export async function runCliInProcess({
  args,
  env = {},
  cwd,
  signal = new AbortController().signal,
}: {
  args: string[];
  env?: Record<string, string | undefined>;
  cwd: string;
  signal?: AbortSignal;
}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCli({
    argv: ['node', 'confidant', ...args],
    io: {
      stdout: (text) => {
        stdout += text;
      },
      stderr: (text) => {
        stderr += text;
      },
      // Tests run with full validation of events and records (CONFIDANT_VALIDATE), as a debug run would.
      env: { CONFIDANT_VALIDATE: '1', ...env },
      cwd,
      home: cwd,
      isTTY: false,
      signal,
    },
  });
  return { code, signal: null, stdout, stderr };
}
