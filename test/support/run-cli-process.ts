import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The repository root. Upstream datasets are found through `test-data.ts`, never from here. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** What a finished CLI process left behind. */
export type CliResult = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

/** The last non-empty stdout line: by contract, the run directory for run/resume/merge. */
export function lastLine(text: string): string {
  const lines = text.trimEnd().split('\n');
  return lines[lines.length - 1] ?? '';
}

/**
 * Starts the real CLI (`src/cli/main.ts` through tsx) as a child process. It must be async:
 * tests serve the model from a loopback server in this same process. With
 * `CONFIDANT_E2E_CLI=<main.js>` set (e.g. `dist/cli/main.js`, the bundled build), the tests run
 * that built entry instead, so the bundle is checked by the same end-to-end tests.
 */
export function startCli({
  args,
  env,
  cwd,
  prefix = [],
}: {
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** A command that runs the CLI, e.g. `['unshare', '-n']` for a process without network. */
  prefix?: string[];
}): {
  child: ReturnType<typeof spawn>;
  done: Promise<CliResult>;
} {
  // tsx is named by absolute URL: the child's working directory is a temp dir without node_modules.
  const tsxLoader = pathToFileURL(join(repoRoot, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
  const built = process.env.CONFIDANT_E2E_CLI;
  const command = built
    ? [process.execPath, resolve(repoRoot, built), ...args]
    : [process.execPath, '--import', tsxLoader, join(repoRoot, 'src', 'cli', 'main.ts'), ...args];
  const [file, ...rest] = [...prefix, ...command] as [string, ...string[]];
  const child = spawn(file, rest, {
    cwd,
    // Tests run with full validation of events and records (CONFIDANT_VALIDATE), as a debug run would.
    env: { PATH: process.env.PATH ?? '', CONFIDANT_VALIDATE: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const done = new Promise<CliResult>((resolvePromise) => {
    child.on('close', (code, signal) => resolvePromise({ code, signal, stdout, stderr }));
  });
  return { child, done };
}

/** Runs the CLI to completion. */
export function runCli(options: {
  args: string[];
  env: Record<string, string>;
  cwd: string;
  prefix?: string[];
}): Promise<CliResult> {
  return startCli(options).done;
}
