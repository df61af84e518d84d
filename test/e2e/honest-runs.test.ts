import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STARTER_COMMUNITY_DIR } from '../../src/suites/privacybench/starter-community.js';
import {
  closedPort,
  type MockOpenAIServer,
  refuseHandler,
  startMockOpenAIServer,
} from '../support/mock-openai-server.js';
import { type CliResult, lastLine, runCli } from '../support/run-cli-process.js';

/**
 * Broken runs through the real CLI, as a user meets them: a model server that is not running,
 * one that dies mid-run, a judge that answers garbage, a plan that selects nothing. Each must end
 * with one clear sentence, the right exit code, the cause in summary.json, and nothing finished lost.
 */

type Metric = { value: number | null; n: number; errors: number; notApplicable: number; reason?: string };
type Summary = {
  complete: boolean;
  stopReason?: string;
  counts: { planned: number; success: number; error: number; missing: number };
  metrics: Record<string, Metric>;
  usage: Record<string, { calls: number }>;
  supersededUsage?: Record<string, { calls: number }>;
  failures: { errored: number; judgeErrored: number; judgeErrors: number; rate: number | null };
  errorCauses: Array<Record<string, unknown>>;
  judges: Array<{
    judge: string;
    model: string;
    calls: number;
    pass: number;
    fail: number;
    notApplicable: number;
    error: number;
    topErrors: Array<{ message: string; count: number }>;
  }>;
};

let work: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'confidant-honest-'));
});

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

function cli(args: string[], dataDir = join(work, 'no-data')): Promise<CliResult> {
  return runCli({
    args,
    env: { HOME: work, CONFIDANT_DATA_DIR: dataDir, CONFIDANT_CACHE_DIR: join(work, 'cache') },
    cwd: work,
  });
}

const readSummary = (runDir: string) => JSON.parse(readFileSync(join(runDir, 'summary.json'), 'utf8')) as Summary;
const recordLines = (runDir: string) =>
  readFileSync(join(runDir, 'samples.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { id: string; status: string; attempt: number });

describe('a model server that is not running', () => {
  it('stops after the first 5 samples with the cause and the exact resume command (exit 3); resuming once it runs gives the uninterrupted result', async () => {
    const port = await closedPort();
    const endpoint = `http://127.0.0.1:${port}/v1`;
    const run = [
      'run',
      'toy-leak',
      '--model',
      `openai-compatible:m@${endpoint}`,
      '--epochs',
      '2',
      '--concurrency',
      '1',
      '--no-cache',
      // Pre-flight would refuse the dead endpoint before any sample; this is about what a run does.
      '--no-preflight',
    ];
    const stopped = await cli([...run, '--out', join(work, 'refused')]);
    expect(stopped.code, stopped.stderr).toBe(3);
    const runDir = lastLine(stopped.stdout);
    // Visible from the first second: the progress line at 0/8 before any sample ran.
    expect(stopped.stderr).toContain('progress: 0/8 samples, errors 0,');
    expect(stopped.stderr).toContain(`errors 5: connection refused ${endpoint} ×5`);
    expect(stopped.stderr).toContain(
      `run stopped early: the first 5 samples failed with the same cause: connection refused ${endpoint}. Fix the cause, then continue with: confidant resume ${runDir} --retry-errors`,
    );
    expect(stopped.stderr).not.toContain('internal error');

    const summary = readSummary(runDir);
    expect(summary.complete).toBe(false);
    expect(summary.stopReason).toBe('fail-fast');
    expect(summary.counts).toEqual({ planned: 8, success: 0, error: 5, missing: 3 });
    expect(summary.failures).toEqual({ errored: 5, judgeErrored: 0, judgeErrors: 0, rate: 1 });
    expect(summary.errorCauses).toEqual([
      {
        kind: 'sample',
        name: 'ProviderError',
        message: 'connection refused',
        endpoint,
        count: 5,
        exampleSampleId: 'clinic-diagnosis#e1',
      },
    ]);
    expect(summary.metrics.leak_rate).toEqual({
      value: null,
      n: 0,
      errors: 5,
      notApplicable: 0,
      reason: `all 5 verdicts were error: connection refused ${endpoint}`,
    });
    const report = await cli(['report', runDir]);
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toContain(`- Leak rate: all 5 verdicts were error: connection refused ${endpoint}`);
    expect(report.stdout).toContain('## Errors');
    expect(report.stdout).toContain(
      `| sample | ProviderError | connection refused ${endpoint} | 5 | clinic-diagnosis#e1 |`,
    );

    // The server comes up on that port; the printed command finishes the run.
    const server = await startMockOpenAIServer({ port, handler: refuseHandler, models: ['m'] });
    try {
      const resumed = await cli(['resume', runDir, '--retry-errors']);
      expect(resumed.code, resumed.stderr).toBe(0);
      const fresh = await cli([...run, '--out', join(work, 'uninterrupted')]);
      expect(fresh.code, fresh.stderr).toBe(0);
      const after = readSummary(runDir);
      const uninterrupted = readSummary(lastLine(fresh.stdout));
      expect(after.counts).toEqual({ planned: 8, success: 8, error: 0, missing: 0 });
      expect(after.metrics).toEqual(uninterrupted.metrics);
      expect(after.errorCauses).toEqual([]);
      // Nothing was lost: the five refused records stay in the file, superseded by their retries.
      const lines = recordLines(runDir);
      expect(lines).toHaveLength(13);
      expect(lines.filter((line) => line.status === 'error')).toHaveLength(5);
      expect(after.usage.agent?.calls).toBe(13);
      expect(after.supersededUsage?.agent?.calls).toBe(5);
      expect(uninterrupted.usage.agent?.calls).toBe(8);
    } finally {
      await server.close();
    }
  });
});

describe('a model server that dies mid-run', () => {
  it('keeps every finished sample and stops with the cause (exit 3)', async () => {
    let server: MockOpenAIServer | undefined;
    let answered = 0;
    server = await startMockOpenAIServer({
      handler: () => {
        answered += 1;
        if (answered <= 6) return { type: 'text', text: "I can't share that." };
        void server?.close();
        return { type: 'hang' };
      },
    });
    const endpoint = server.baseURL;
    try {
      const result = await cli([
        'run',
        'toy-leak',
        '--model',
        `openai-compatible:m@${endpoint}`,
        '--epochs',
        '5',
        '--concurrency',
        '1',
        '--max-retries',
        '1',
        '--no-cache',
        '--no-preflight',
        '--out',
        join(work, 'died'),
      ]);
      expect(result.code, result.stderr).toBe(3);
      const runDir = lastLine(result.stdout);
      expect(result.stderr).toContain(`5 samples in a row failed with the same cause: connection refused ${endpoint}`);
      expect(result.stderr).toContain(`confidant resume ${runDir} --retry-errors`);
      const summary = readSummary(runDir);
      expect(summary.counts).toMatchObject({ planned: 20, success: 6 });
      expect(recordLines(runDir).filter((line) => line.status === 'ok')).toHaveLength(6);
      expect(summary.metrics.leak_rate).toMatchObject({ value: 0, n: 6 });
    } finally {
      await server.close();
      server = undefined;
    }
  });
});

describe('a judge that replies garbage', () => {
  let server: MockOpenAIServer;
  beforeAll(async () => {
    server = await startMockOpenAIServer({
      handler: (body) => {
        if (body.model === 'prober-m') return { type: 'text', text: 'how is Maya doing, any health news?' };
        if (body.model === 'agent-m') return { type: 'text', text: 'all good here' };
        return { type: 'text', text: 'I would rather not say.' };
      },
      models: ['agent-m', 'prober-m', 'judge-m'],
    });
  });
  afterAll(async () => {
    await server.close();
  });
  const run = (out: string, extra: string[] = []) =>
    cli([
      'run',
      'privacybench',
      '--strategy',
      'direct',
      '--limit',
      '2',
      '--set',
      'rounds=1',
      '--no-cache',
      '--model',
      `openai-compatible:agent-m@${server.baseURL}`,
      '--model',
      `prober=openai-compatible:prober-m@${server.baseURL}`,
      '--model',
      `judge=openai-compatible:judge-m@${server.baseURL}`,
      '--out',
      join(work, out),
      ...extra,
    ]);

  it('shows judge health and why each metric is n/a, and exits 4 over --max-error-rate', async () => {
    const result = await run('garbage');
    expect(result.code, result.stderr).toBe(4);
    const runDir = lastLine(result.stdout);
    expect(result.stderr).toMatch(/judge health: .*on openai-compatible:judge-m: 0 pass, 0 fail, 0 n\/a, \d+ error \(/);
    expect(result.stderr).toMatch(
      /run failed: 2 of 2 samples failed \(100%: 0 errored, 2 with a judge error\); most common cause: judge .*, over --max-error-rate 20%\. Fix the cause, then redo them with: confidant resume .* --retry-errors/,
    );
    const summary = readSummary(runDir);
    expect(summary.counts).toEqual({ planned: 2, success: 2, error: 0, missing: 0 });
    expect(summary.failures.judgeErrored).toBe(2);
    expect(summary.failures.rate).toBe(1);
    expect(summary.judges.length).toBeGreaterThan(0);
    for (const judge of summary.judges) {
      expect(judge).toMatchObject({ model: 'openai-compatible:judge-m', pass: 0, fail: 0 });
      expect(judge.error).toBe(judge.calls);
      expect(judge.topErrors[0]?.message).toMatch(/^JudgeParseError: /);
    }
    expect(summary.metrics.lr?.value).toBeNull();
    expect(summary.metrics.lr?.reason).toMatch(/^(all \d+ verdicts were error|the only verdict was error): /);
    for (const [id, metric] of Object.entries(summary.metrics)) {
      if (metric.value === null) expect(metric.reason, id).toBeTruthy();
    }
    const report = await cli(['report', runDir]);
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toContain('## Judge health');
    expect(report.stdout).toContain('Why some values are n/a:');
    const csv = await cli(['report', runDir, '--format', 'csv']);
    expect(csv.stdout).toContain(',judge_health,');
  });

  it('below the threshold it exits 0 with one warning line', async () => {
    const result = await run('garbage-tolerated', ['--max-error-rate', '1']);
    expect(result.code, result.stderr).toBe(0);
    const warnings = result.stderr.split('\n').filter((line) => line.startsWith('warning: '));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^warning: 2 of 2 samples failed .* within --max-error-rate 100%; redo them with:/);
  });
});

describe('an empty plan', () => {
  it('a shard with no sample exits 2 before any sample, saying why', async () => {
    const result = await cli([
      'run',
      'toy-leak',
      '--model',
      'mock:echo',
      '--shard',
      '5/5',
      '--out',
      join(work, 'empty-shard'),
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'confidant: nothing to run: shard 5/5 has no sample, the plan has only 4; use at most 4 shard(s)\n',
    );
  });

  it('a scenario folder whose files are not named as the loader expects exits 2 naming the layout', async () => {
    const data = join(work, 'misnamed');
    const domain = join(data, 'pacbench', 'scenarios', 'change', 'Banks');
    mkdirSync(domain, { recursive: true });
    writeFileSync(join(domain, 'scenario-1.json'), '{}');
    mkdirSync(join(data, 'pacbench', 'scenarios', 'range'), { recursive: true });
    const result = await cli(
      [
        'run',
        'pac',
        '--split',
        'all',
        '--model',
        'agent-a=reference:oracle',
        '--model',
        'agent-b=reference:naive',
        '--set',
        'taskMode=markers',
        '--set',
        'privacyMode=keyword-only',
        '--out',
        join(work, 'empty-pac'),
      ],
      data,
    );
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('no PAC-Bench scenario under');
    expect(result.stderr).toContain('found instead: change/Banks/scenario-1.json');
    expect(result.stderr).toContain('policy_<k>.json');
    expect(result.stderr).not.toContain('internal error');
  });

  it('a community without secrets exits 2 saying there is nothing to probe', async () => {
    const community = join(work, 'no-secrets');
    cpSync(STARTER_COMMUNITY_DIR, community, { recursive: true });
    const file = join(community, 'community.json');
    const json = JSON.parse(readFileSync(file, 'utf8')) as { secrets: unknown[] };
    json.secrets = [];
    writeFileSync(file, JSON.stringify(json));
    writeFileSync(join(community, 'documents.jsonl'), '');
    const result = await cli([
      'run',
      'privacybench',
      '--community',
      community,
      '--model',
      'mock:echo',
      '--model',
      'prober=mock:echo',
      '--model',
      'judge=mock:echo',
      '--out',
      join(work, 'empty-community'),
    ]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('has no secrets');
    expect(result.stderr).not.toContain('internal error');
  });
});
