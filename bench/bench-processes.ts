// Child processes of the whole-process benchmarks: the loopback mock server (its CPU is not the
// measured tool's), and a node entry run under /usr/bin/time (wall, user + system CPU, max RSS).
import { type ChildProcess, fork, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What /usr/bin/time reports of one process: seconds of wall and of CPU (user + system), max RSS in MB. */
export type Measured = { wallS: number; cpuS: number; maxRssMb: number };

/**
 * Starts `mock-server-process.ts` (an echoing OpenAI-compatible server answering after
 * `latencyMs`) in a child process and resolves with its port once it listens. Stop it by sending
 * it `'close'`.
 */
export function startMockServerProcess({
  latencyMs,
  maxRequests,
}: {
  latencyMs: number;
  maxRequests: number;
}): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(
    fileURLToPath(new URL('./mock-server-process.ts', import.meta.url)),
    [`--latency=${latencyMs}`, `--max-requests=${maxRequests}`],
    { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`mock server exited early (code ${code})`)));
    child.once('message', (message) => {
      const port = (message as { port?: unknown }).port;
      if (typeof port === 'number') resolve({ child, port });
      else reject(new Error('mock server sent no port'));
    });
  });
}

/**
 * Runs `node <entry> <args>` under /usr/bin/time in `cwd`, with `env` over this process's
 * environment; throws with its output on a non-zero exit.
 */
export function timeNodeProcess({
  entry,
  args,
  env = {},
  cwd,
}: {
  entry: string;
  args: readonly string[];
  env?: Record<string, string>;
  cwd?: string;
}): Measured & { stdout: string } {
  const dir = mkdtempSync(join(tmpdir(), 'confidant-bench-time-'));
  const timeFile = join(dir, 'time');
  try {
    const result = spawnSync('/usr/bin/time', ['-o', timeFile, '-f', '%e %U %S %M', process.execPath, entry, ...args], {
      ...(cwd === undefined ? {} : { cwd }),
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', ...env },
      maxBuffer: 64 << 20,
    });
    if (result.status !== 0) {
      throw new Error(`${entry} ${args.join(' ')} exited ${result.status}:\n${result.stdout}${result.stderr}`);
    }
    const [wall, user, system, rssKb] = readFileSync(timeFile, 'utf8')
      .trim()
      .split('\n')
      .at(-1)!
      .split(' ')
      .map(Number);
    return { wallS: wall!, cpuS: user! + system!, maxRssMb: rssKb! / 1024, stdout: result.stdout };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The benchmarks' workload as `confidant` arguments: ConfAIde tier 3 free-response (one model call
 * per sample), `n` samples as the first `scenarios` scenarios × whole epochs, at `concurrency`
 * calls and connections in flight, against `model`.
 */
export function confaideBenchArgs({
  n,
  scenarios,
  concurrency,
  dataDir,
  out,
  model,
}: {
  n: number;
  scenarios: number;
  concurrency: number;
  dataDir: string;
  out: string;
  model: string;
}): string[] {
  return [
    'run',
    'confaide',
    '--tier',
    '3',
    '--set',
    'questions=free-response',
    '--limit',
    String(Math.min(n, scenarios)),
    '--epochs',
    String(Math.max(1, Math.round(n / scenarios))),
    '--concurrency',
    String(concurrency),
    '--max-connections',
    String(concurrency),
    '--data-dir',
    dataDir,
    '--out',
    out,
    '-m',
    model,
  ];
}
