import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { type MockHandler, type MockOpenAIServer, startMockOpenAIServer } from './mock-openai-server.js';
import { type CliResult, lastLine, runCli } from './run-cli-process.js';

/** A stored metric as the fidelity tests read it. */
export type FidelityMetric = {
  value: number | null;
  n: number;
  errors: number;
  notApplicable: number;
  reason?: string;
  convention?: string;
};

/** One finished `confidant run`: the process result and, when it wrote a run, what it stored. */
export type FidelityRun = {
  result: CliResult;
  /** The run directory (the last stdout line). */
  dir: string;
  /** `summary.json`'s metrics. */
  metrics: Record<string, FidelityMetric>;
  /** `header.json`'s plan fidelity and suite options. */
  plan: { fidelity?: string; suiteOptions: Record<string, unknown> };
};

/**
 * The setup of a `--fidelity` end-to-end test file: a work folder and a loopback OpenAI-compatible
 * server answering with `handler` (started before the file's tests, closed after), and `run`,
 * which runs `confidant run <args(context)…> <extra…> --out <work>/<out>` in a child process with
 * its own cache folder (so each mode asks the server itself) and reads the stored summary and
 * header. `prepare` fills the work folder first (e.g. fixture data).
 */
export function useFidelityRuns({
  prefix,
  handler,
  models,
  args,
  prepare,
  env = () => ({}),
}: {
  prefix: string;
  handler: MockHandler;
  models: readonly string[];
  args: (context: { work: string; baseURL: string }) => string[];
  prepare?: (work: string) => void;
  env?: (work: string) => Record<string, string>;
}): { run: (extra: string[], out: string) => Promise<FidelityRun>; server: () => MockOpenAIServer } {
  let work = '';
  let server: MockOpenAIServer | undefined;
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), `confidant-e2e-${prefix}-`));
    prepare?.(work);
    server = await startMockOpenAIServer({ handler, models });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(work, { recursive: true, force: true });
  });
  const current = (): MockOpenAIServer => {
    if (server === undefined) throw new Error('the loopback server is not started (call run inside a test)');
    return server;
  };
  const run = async (extra: string[], out: string): Promise<FidelityRun> => {
    const result = await runCli({
      args: ['run', ...args({ work, baseURL: current().baseURL }), '--out', join(work, out), ...extra],
      env: { HOME: work, CONFIDANT_CACHE_DIR: join(work, `cache-${out}`), ...env(work) },
      cwd: work,
    });
    const dir = lastLine(result.stdout);
    const read = <T>(file: string, fallback: T): T => {
      try {
        return JSON.parse(readFileSync(join(dir, file), 'utf8')) as T;
      } catch {
        return fallback;
      }
    };
    return {
      result,
      dir,
      metrics: read<{ metrics: Record<string, FidelityMetric> }>('summary.json', { metrics: {} }).metrics,
      plan: read<{ plan: FidelityRun['plan'] }>('header.json', { plan: { suiteOptions: {} } }).plan,
    };
  };
  return { run, server: current };
}
