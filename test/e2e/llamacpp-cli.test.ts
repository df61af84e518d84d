import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli as runCliInProcess } from '../../src/cli/run-cli.js';
import { llamaCppStats } from '../../src/models/llamacpp-engine.js';
import type { ModelCallEvent } from '../../src/spec/event.js';
import type { SampleRecord } from '../../src/spec/run-record.js';
import { DirectoryRunStore } from '../../src/store/index.js';
import { QUESTIONS_BY_TIER } from '../../src/suites/confaide/confaide-scenario.js';
import { lastLine, runCli } from '../support/run-cli-process.js';
import { fixtureDataDir } from '../support/test-data.js';
import { tinyLlamaGguf, tinyLlamaWords } from '../support/tiny-llama-gguf.js';

// The llamacpp provider end to end: the real CLI runs suites on a real GGUF file (the tiny
// seeded model) through node-llama-cpp, offline. Where `unshare -n` works (root, or user
// namespaces allowed), the CLI runs in a network namespace with no interface but loopback.
// Each CLI start compiles the CLI with tsx, hence the long timeouts on a busy machine.

/** `unshare -n` as a command prefix, or why it cannot be used here. */
function networkNamespace(): { prefix: string[]; unavailable: string | null } {
  const probe = spawnSync('unshare', ['-n', 'true'], { encoding: 'utf8' });
  if (probe.error) return { prefix: [], unavailable: `unshare is not installed (${probe.error.message})` };
  if (probe.status !== 0) return { prefix: [], unavailable: `unshare -n failed: ${probe.stderr.trim()}` };
  return { prefix: ['unshare', '-n'], unavailable: null };
}

const offline = networkNamespace();
const where = offline.unavailable === null ? 'under unshare -n' : `with network (${offline.unavailable})`;
const modelPath = tinyLlamaGguf();
let work: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'confidant-llamacpp-e2e-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

function env(): Record<string, string> {
  return {
    HOME: work,
    // Our own ConfAIde-format tier files (test/fixtures/datasets/confaide).
    CONFIDANT_DATA_DIR: fixtureDataDir,
    CONFIDANT_CACHE_DIR: join(work, 'cache'),
    // One thread: the tiny model gains nothing from more, and test workers share the cores.
    CONFIDANT_LLAMACPP_THREADS: '1',
  };
}

function cli(args: string[]) {
  return runCli({ args, env: env(), cwd: work, prefix: offline.prefix });
}

/** The CLI in this process: no start-up cost, and the adapter's counts are readable here. */
async function cliInProcess(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCliInProcess({
    argv: ['node', 'confidant', ...args],
    io: {
      stdout: (text) => {
        stdout += text;
      },
      stderr: (text) => {
        stderr += text;
      },
      env: env(),
      cwd: work,
      home: work,
      isTTY: false,
      signal: new AbortController().signal,
    },
  });
  return { code, stdout, stderr };
}

/** Reads a run directory through the store, which validates header, samples and summary. */
async function readRun(runDir: string) {
  const store = new DirectoryRunStore(runDir);
  const header = await store.readHeader();
  const samples = await store.readSamples();
  const summary = await store.readSummary();
  if (!summary) throw new Error(`${runDir} has no summary.json`);
  const calls = samples.flatMap((sample: SampleRecord) =>
    sample.events.filter((event): event is ModelCallEvent => event.type === 'model-call'),
  );
  return { header, samples, summary, calls };
}

async function checkFreshRun({ runDir, planned }: { runDir: string; planned: number }) {
  const run = await readRun(runDir);
  expect(run.header.models.agent).toEqual([
    expect.objectContaining({ provider: 'llamacpp', modelId: modelPath, endpoints: [] }),
  ]);
  expect(run.header.sampleIds).toHaveLength(planned);
  expect(run.summary).toMatchObject({ complete: true, counts: { planned, success: planned, error: 0, missing: 0 } });
  expect(run.samples.map((sample) => sample.status)).toEqual(Array(planned).fill('ok'));
  expect(run.calls).toHaveLength(planned);
  for (const call of run.calls) {
    expect(call).toMatchObject({ provider: 'llamacpp', modelId: modelPath, cached: false, attempts: 1 });
    expect(call.response?.finishReason).toBe('length');
    expect(call.usage.outputTokens).toBe(12);
    expect(call.usage.inputTokens).toBeGreaterThan(20);
    for (const word of call.response?.text.trim().split(/\s+/) ?? []) expect(tinyLlamaWords).toContain(word);
  }
  expect(run.summary.usage.agent).toMatchObject({ calls: planned, cachedCalls: 0, outputTokens: 12 * planned });
  const report = await cliInProcess(['report', runDir]);
  expect(report.code, report.stderr).toBe(0);
  expect(report.stdout).toContain(`confidant report: ${run.header.suite.id}`);
  return run;
}

async function checkCachedRerun({ runDir, first }: { runDir: string; first: Awaited<ReturnType<typeof readRun>> }) {
  const run = await readRun(runDir);
  expect(run.calls).toHaveLength(first.calls.length);
  for (const call of run.calls) expect(call.cached).toBe(true);
  expect(run.calls.map((call) => call.response?.text)).toEqual(first.calls.map((call) => call.response?.text));
  expect(run.summary.usage.agent).toMatchObject({ calls: first.calls.length, cachedCalls: first.calls.length });
  expect(run.summary.metrics).toEqual(first.summary.metrics);
}

describe('the llamacpp provider through the CLI', () => {
  it.skipIf(offline.unavailable !== null)(
    `the network namespace has loopback only${offline.unavailable === null ? '' : ` (skipped: ${offline.unavailable})`}`,
    () => {
      const devices = spawnSync('unshare', ['-n', 'cat', '/proc/net/dev'], { encoding: 'utf8' });
      expect(devices.status).toBe(0);
      const interfaces = devices.stdout
        .split('\n')
        .slice(2)
        .map((line) => line.split(':')[0]?.trim())
        .filter((name) => name);
      expect(interfaces).toEqual(['lo']);
    },
  );

  it(`runs toy-leak on a GGUF file ${where}; a re-run is served from the cache`, async () => {
    const args = ['run', 'toy-leak', '--model', `llamacpp:${modelPath}`, '--model-setting', 'agent.maxOutputTokens=12'];
    const first = await cli([...args, '--out', join(work, 'toy')]);
    expect(first.code, first.stderr).toBe(0);
    const run = await checkFreshRun({ runDir: lastLine(first.stdout), planned: 4 });
    // Four word-salad answers never contain a canary: every verdict is a pass, none an error.
    const leakRate = run.summary.metrics.leak_rate;
    expect(leakRate).toMatchObject({ value: 0, n: 4, errors: 0, notApplicable: 0, stderr: 0, ciMethod: 'wilson' });
    // Wilson upper bound for 0 of 4: z² / (n + z²) with z = 1.96.
    expect(leakRate?.ci95?.[0]).toBe(0);
    expect(leakRate?.ci95?.[1]).toBeCloseTo(1.959964 ** 2 / (4 + 1.959964 ** 2), 6);

    const again = await cli([...args, '--out', join(work, 'toy-again')]);
    expect(again.code, again.stderr).toBe(0);
    await checkCachedRerun({ runDir: lastLine(again.stdout), first: run });
  }, 240_000);

  it(`runs ConfAIde tier 3 with --limit 2 on a project-written tier-3 file ${where}`, async () => {
    const args = [
      'run',
      'confaide',
      '--tier',
      '3',
      '--limit',
      '2',
      '--model',
      `llamacpp:${modelPath}`,
      '--model-setting',
      'agent.maxOutputTokens=12',
    ];
    const first = await cli([...args, '--out', join(work, 'confaide')]);
    expect(first.code, first.stderr).toBe(0);
    const planned = 2 * QUESTIONS_BY_TIER['3'].length;
    const run = await checkFreshRun({ runDir: lastLine(first.stdout), planned });
    expect(new Set(run.samples.map((sample) => sample.scenarioId))).toEqual(new Set(['t3-s000', 't3-s001']));
    expect(run.header.dataset.files.map((file) => file.path).sort()).toEqual(['tier_3.txt', 'tier_3_control.txt']);
    for (const metric of Object.values(run.summary.metrics)) expect(metric).toMatchObject({ n: 2, errors: 0 });

    const again = await cli([...args, '--out', join(work, 'confaide-again')]);
    expect(again.code, again.stderr).toBe(0);
    await checkCachedRerun({ runDir: lastLine(again.stdout), first: run });
  }, 240_000);

  it('rejects a missing file and a file that is not GGUF with exit code 2 and one line', async () => {
    const args = ['run', 'toy-leak', '--model', 'llamacpp:/models/none.gguf', '--out', join(work, 'x')];
    const missing = await cli(args);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim()).toMatch(/^confidant: pre-flight check failed, .*no file at \/models\/none\.gguf/);
    // Past the pre-flight, the adapter itself names the file.
    const unchecked = await cli([...args, '--no-preflight']);
    expect(unchecked.code).toBe(2);
    expect(unchecked.stderr.trim()).toBe(
      'confidant: llamacpp model file not found: /models/none.gguf (the model id of a llamacpp: spec is the path of a local .gguf file, e.g. llamacpp:/models/qwen3-4b-q4.gguf)',
    );
    const text = join(work, 'notes.gguf');
    writeFileSync(text, 'not a model\n');
    const notGguf = await cli(['run', 'toy-leak', '--model', `llamacpp:${text}`, '--out', join(work, 'x')]);
    expect(notGguf.code).toBe(2);
    // The pre-flight only checks that the file exists; loading it then fails with one line.
    expect(notGguf.stderr.trim().split('\n')).toEqual([
      'pre-flight: 1 model endpoint ready (agent)',
      expect.stringMatching(/^confidant: llamacpp model .*notes\.gguf is not a GGUF file/),
    ]);
  }, 120_000);

  it('loads the model once for agent and judge, and a cached re-run makes no generation (in process)', async () => {
    // The CLI in this process, so the adapter's own counts can be read; a private copy of the
    // file keeps them apart from other tests.
    const path = join(work, 'shared-roles.gguf');
    copyFileSync(modelPath, path);
    const run = async (out: string) => {
      const result = await cliInProcess([
        'run',
        'confaide',
        '--tier',
        '3',
        '--limit',
        '2',
        '--set',
        'questions=free-response',
        '--set',
        'tier3Proxy=on',
        '--model',
        `agent=llamacpp:${path}`,
        '--model',
        `judge=llamacpp:${path}`,
        '--model-setting',
        'agent.maxOutputTokens=12',
        '--model-setting',
        'judge.maxOutputTokens=8',
        '--out',
        join(work, out),
      ]);
      expect(result.code, result.stderr).toBe(0);
      return readRun(lastLine(result.stdout));
    };
    const first = await run('roles');
    const roles = first.calls.map((call) => call.role).sort();
    expect(roles).toEqual(['agent', 'agent', 'judge', 'judge']);
    expect(await llamaCppStats(path)).toEqual({ loads: 1, generations: 4 });

    const again = await run('roles-again');
    expect(again.calls.map((call) => call.cached)).toEqual([true, true, true, true]);
    expect(await llamaCppStats(path)).toEqual({ loads: 1, generations: 4 });
  }, 120_000);
});
