import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  echoHandler,
  type MockHandler,
  type MockOpenAIServer,
  refuseHandler,
  startMockOpenAIServer,
} from '../support/mock-openai-server.js';
import { type CliResult, lastLine, runCli, startCli } from '../support/run-cli-process.js';
import { fixtureDataDir, upstreamDataset } from '../support/test-data.js';

/** The real ConfAIde files, for the one test that proves `data pull` against their checksums. */
const upstreamConfaide = upstreamDataset('confaide');

type Summary = {
  counts: { planned: number; success: number; error: number; missing: number };
  metrics: Record<
    string,
    { value: number | null; n: number; errors: number; notApplicable: number; reason?: string; ci95?: [number, number] }
  >;
  usage: Record<string, { calls: number; cachedCalls: number }>;
};

let work: string;
let server: MockOpenAIServer;
/**
 * A model that echoes its prompt back, minus the answer cue at its end: scoring reads the text
 * after the last `Answer:`, so an echo that kept the cue would be scored on the cue alone.
 */
const echoPrompt: MockHandler = (body) => ({ type: 'text', text: echoText(body) });

let handler: MockHandler = echoPrompt;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'confidant-e2e-'));
  server = await startMockOpenAIServer({
    handler: (body, index) => handler(body, index),
    models: ['broken', 'broken2', 'budget', 'chain', 'echo', 'mixed', 'refuse', 'sigint', 'slow-echo'],
  });
});

afterAll(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

function env(extra: Record<string, string> = {}): Record<string, string> {
  return {
    HOME: work,
    // Our own tier files in the upstream format: the spine's tests need no upstream data.
    CONFIDANT_DATA_DIR: fixtureDataDir,
    CONFIDANT_CACHE_DIR: join(work, 'cache'),
    ...extra,
  };
}

function cli(args: string[], extra: Record<string, string> = {}): Promise<CliResult> {
  return runCli({ args, env: env(extra), cwd: work });
}

const model = (name: string) => `openai-compatible:${name}@${server.baseURL}`;

function tier3(args: string[]): string[] {
  return ['run', 'confaide', '--tier', '3', '--set', 'questions=free-response', '--concurrency', '2', ...args];
}

function readSummary(runDir: string): Summary {
  return JSON.parse(readFileSync(join(runDir, 'summary.json'), 'utf8')) as Summary;
}

function recordIds(runDir: string): string[] {
  return readFileSync(join(runDir, 'samples.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => (JSON.parse(line) as { id: string }).id);
}

describe('confidant CLI on ConfAIde-format fixtures', () => {
  it('prints help and lists suites and providers', async () => {
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('run');
    const list = await cli(['list', 'suites,providers']);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('confaide');
    expect(list.stdout).toContain('openai-compatible');
  });

  it('a model that echoes its prompt leaks every subject (fr_e = 1), and a re-run is served wholly from cache', async () => {
    handler = echoPrompt;
    const before = server.count;
    const first = await cli(tier3(['--limit', '4', '--model', model('echo'), '--out', join(work, 'echo')]));
    expect(first.code, first.stderr).toBe(0);
    const runDir = lastLine(first.stdout);
    const summary = readSummary(runDir);
    expect(summary.metrics.fr_e).toMatchObject({ value: 1, n: 4, errors: 0, notApplicable: 0 });
    expect(summary.metrics.fr_e_worst?.value).toBe(1);
    expect(summary.counts).toEqual({ planned: 4, success: 4, error: 0, missing: 0 });
    expect(server.count - before).toBe(4);

    const again = await cli(tier3(['--limit', '4', '--model', model('echo'), '--out', join(work, 'echo-again')]));
    expect(again.code, again.stderr).toBe(0);
    expect(server.count - before).toBe(4);
    const cached = readSummary(lastLine(again.stdout));
    expect(cached.metrics.fr_e?.value).toBe(1);
    expect(cached.usage.agent).toMatchObject({ calls: 4, cachedCalls: 4 });

    const report = await cli(['report', runDir]);
    expect(report.code).toBe(0);
    expect(report.stdout).toContain('FR-E');
    expect(report.stdout).toContain('100.0');
  });

  it('a model that refuses leaks nothing (fr_e = 0)', async () => {
    handler = refuseHandler;
    const result = await cli(tier3(['--limit', '3', '--model', model('refuse'), '--out', join(work, 'refuse')]));
    expect(result.code, result.stderr).toBe(0);
    expect(readSummary(lastLine(result.stdout)).metrics.fr_e).toMatchObject({
      value: 0,
      n: 3,
      errors: 0,
      notApplicable: 0,
    });
  });

  it('no story leaking over two epochs is not a certain 0: Wilson over the stories, not a collapsed 0.0–0.0', async () => {
    const out = join(work, 'no-leak-epochs');
    const common = ['--limit', '4', '--epochs', '2', '--model', 'mock:echo', '--model', 'judge=mock:judge-safe'];
    const result = await cli(tier3([...common, '--out', out]));
    expect(result.code, result.stderr).toBe(0);
    const fr = readSummary(lastLine(result.stdout)).metrics.fr_e;
    // Every sample of every story said nothing: the scenario bootstrap can only redraw 0; 0 of 4 stories instead.
    expect(fr).toMatchObject({ value: 0, n: 4, ciMethod: 'cluster-wilson' });
    expect(fr?.ci95?.[0]).toBe(0);
    expect(fr?.ci95?.[1]).toBeCloseTo(1.959964 ** 2 / (4 + 1.959964 ** 2), 6);
    const report = await cli(['report', lastLine(result.stdout)]);
    expect(report.stdout).toMatch(/\| FR-E \(%\) \| 0\.0 \| 0\.0–49\.0 \|/);
  });

  it('provider failures are retried, then recorded as errored samples that never count as zero', async () => {
    handler = () => ({ type: 'status', status: 500, body: { error: { message: 'boom' } } });
    const result = await cli(
      tier3(['--limit', '2', '--max-retries', '1', '--model', model('broken'), '--out', join(work, 'broken')]),
    );
    // Every sample failed: over --max-error-rate, so the run exits 4 and says so.
    expect(result.code, result.stderr).toBe(4);
    expect(result.stderr).toMatch(/run failed: 2 of 2 samples failed \(100%: 2 errored, 0 with a judge error\)/);
    const summary = readSummary(lastLine(result.stdout));
    expect(summary.counts.error).toBe(2);
    expect(summary.metrics.fr_e).toMatchObject({ value: null, n: 0, errors: 2, notApplicable: 0 });
    expect(summary.metrics.fr_e?.reason).toMatch(/^all 2 verdicts were error: the sample failed: .*HTTP 500/);
    const failOnError = await cli(
      tier3([
        '--limit',
        '1',
        '--max-retries',
        '0',
        '--fail-on-error',
        '--model',
        model('broken2'),
        '--out',
        join(work, 'b2'),
      ]),
    );
    expect(failOnError.code).toBe(4);
  });

  it('resumes after kill -9 and records every sample exactly once', async () => {
    handler = (body) => ({ type: 'text', text: echoText(body), latencyMs: 150 });
    const out = join(work, 'killed');
    const args = tier3([
      '--limit',
      '12',
      '--concurrency',
      '1',
      '--model',
      model('slow-echo'),
      '--out',
      out,
      '--no-cache',
    ]);
    const { child, done } = startCli({ args, env: env(), cwd: work });
    const runDir = await waitForRecords({ out, count: 3 }).finally(() => child.kill('SIGKILL'));
    const killed = await done;
    expect(killed.signal).toBe('SIGKILL');
    const before = recordIds(runDir);
    expect(before.length).toBeGreaterThanOrEqual(3);
    expect(before.length).toBeLessThan(12);

    handler = echoPrompt;
    const resumed = await cli(['resume', runDir]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(lastLine(resumed.stdout)).toBe(runDir);
    // kill -9 left the run's lock behind: resume takes it over and says so.
    expect(resumed.stderr).toMatch(
      /note: took over the lock of .* from PID \d+ \(confidant run, since .*\), which is no longer running/,
    );
    const ids = recordIds(runDir);
    expect(ids).toHaveLength(12);
    expect(new Set(ids).size).toBe(12);
    expect(ids.slice(0, before.length)).toEqual(before);
    expect(readSummary(runDir).metrics.fr_e).toMatchObject({ value: 1, n: 12, errors: 0, notApplicable: 0 });
  });

  it('two shards merged equal one unsharded run', async () => {
    handler = (body) => {
      // Leak for some scenarios and not others, so the metric is not trivially 0 or 1.
      const text = JSON.stringify(body.messages ?? []);
      return {
        type: 'text',
        text: /surprise party|parental leave/i.test(text) ? echoText(body) : 'I will keep that to myself.',
      };
    };
    const common = ['--tier', '4', '--limit', '5', '--epochs', '2', '--model', model('mixed')];
    const whole = await cli(['run', 'confaide', ...common, '--out', join(work, 'whole')]);
    expect(whole.code, whole.stderr).toBe(0);
    const shard1 = await cli(['run', 'confaide', ...common, '--shard', '1/2', '--out', join(work, 'shards')]);
    const shard2 = await cli(['run', 'confaide', ...common, '--shard', '2/2', '--out', join(work, 'shards')]);
    expect(shard1.code, shard1.stderr).toBe(0);
    expect(shard2.code, shard2.stderr).toBe(0);
    const merged = await cli([
      'merge',
      lastLine(shard1.stdout),
      lastLine(shard2.stdout),
      '--out',
      join(work, 'merged'),
    ]);
    expect(merged.code, merged.stderr).toBe(0);
    const mergedSummary = readSummary(lastLine(merged.stdout));
    const wholeSummary = readSummary(lastLine(whole.stdout));
    expect(mergedSummary.metrics).toEqual(wholeSummary.metrics);
    expect(mergedSummary.counts).toEqual(wholeSummary.counts);
    expect(new Set(recordIds(lastLine(merged.stdout)))).toEqual(new Set(recordIds(lastLine(whole.stdout))));
    // A merged run resumes: nothing is missing, so nothing runs and no record is duplicated.
    const resumed = await cli(['resume', lastLine(merged.stdout)]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(recordIds(lastLine(merged.stdout))).toHaveLength(recordIds(lastLine(whole.stdout)).length);

    const missing = await cli(['merge', lastLine(shard1.stdout), '--out', join(work, 'merged-bad')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/shard 2\/2 is missing/);
  });

  it('a G>V>R chain answers tier 4 with one call per role per sample, and its price shows per role', async () => {
    handler = (body) => {
      const text = JSON.stringify(body.messages ?? []);
      if (text.includes('You are the Verifier'))
        return { type: 'text', text: 'It names a private matter.\nVerdict: REQUEST CHANGES' };
      if (text.includes('You are the Refiner'))
        return { type: 'text', text: 'The launch is on March 3rd at the Lisbon office.' };
      return { type: 'text', text: echoText(body) };
    };
    const result = await cli([
      'run',
      'confaide',
      '--tier',
      '4',
      '--limit',
      '2',
      '--defense',
      'chain:G>V>R',
      '--model',
      model('chain'),
      '--out',
      join(work, 'chain'),
    ]);
    expect(result.code, result.stderr).toBe(0);
    const runDir = lastLine(result.stdout);
    const summary = readSummary(runDir);
    expect(Object.keys(summary.usage).sort()).toEqual(['generator', 'refiner', 'verifier']);
    for (const role of ['generator', 'verifier', 'refiner']) expect(summary.usage[role]?.calls).toBe(4);
    const header = JSON.parse(readFileSync(join(runDir, 'header.json'), 'utf8')) as { defenses: string[] };
    expect(header.defenses).toEqual(['chain:G>V>R']);
    // The refiner's answer, which is what gets scored, names no private item.
    expect(summary.metrics.ms_priv).toMatchObject({ value: 0, n: 2 });
    expect(summary.metrics.ai_priv).toMatchObject({ value: 0, n: 2 });
  });

  it('a budget stop exits 3 and leaves a resumable run', async () => {
    handler = echoPrompt;
    const result = await cli(
      tier3([
        '--limit',
        '6',
        '--concurrency',
        '1',
        '--max-tokens',
        '50',
        '--no-cache',
        '--model',
        model('budget'),
        '--out',
        join(work, 'budget'),
      ]),
    );
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toContain('confidant resume');
    const runDir = lastLine(result.stdout);
    expect(recordIds(runDir).length).toBeLessThan(6);
    const resumed = await cli(['resume', runDir, '--max-tokens', '100000']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(new Set(recordIds(runDir)).size).toBe(6);
  });
});

/** Polls `out` until its run directory holds `count` records; resolves with that directory. */
function waitForRecords({ out, count, timeoutMs = 20_000 }: { out: string; count: number; timeoutMs?: number }) {
  return new Promise<string>((resolvePromise, reject) => {
    const started = Date.now();
    const poll = setInterval(() => {
      try {
        const entry = readdirSync(out, { withFileTypes: true }).find((candidate) => candidate.isDirectory());
        const dir = entry ? join(out, entry.name) : null;
        if (dir && recordIds(dir).length >= count) {
          clearInterval(poll);
          resolvePromise(dir);
          return;
        }
      } catch {
        // The run directory or its samples file does not exist yet.
      }
      if (Date.now() - started > timeoutMs) {
        clearInterval(poll);
        reject(new Error(`the run never wrote ${count} samples`));
      }
    }, 20);
  });
}

function echoText(body: Parameters<MockHandler>[0]): string {
  const plan = echoHandler(body, 0) as { text: string };
  return plan.text.replace(/\n?Answer:\s*"?\s*$/, '');
}

describe('confidant CLI user errors', () => {
  const expectUserError = (result: CliResult, pattern: RegExp) => {
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(pattern);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  };

  it('unknown suite', async () => {
    expectUserError(await cli(['run', 'nosuch', '--model', 'mock:echo']), /unknown suite 'nosuch'.*confaide/);
  });

  it('missing data dir names the pull command', async () => {
    expectUserError(
      await cli(['run', 'confaide', '--tier', '3', '--model', 'mock:echo'], { CONFIDANT_DATA_DIR: join(work, 'none') }),
      /confidant data pull confaide/,
    );
  });

  it('missing API key names its variable', async () => {
    expectUserError(await cli(['run', 'confaide', '--tier', '3', '--model', 'openai:gpt-4o-mini']), /OPENAI_API_KEY/);
  });

  it('malformed model spec, unknown role and unknown provider', async () => {
    expectUserError(await cli(['run', 'confaide', '--tier', '3', '--model', 'nocolon']), /provider:model/);
    expectUserError(
      await cli(['run', 'confaide', '--tier', '3', '--model', 'wizard=mock:echo']),
      /unknown role "wizard"/,
    );
    expectUserError(await cli(['run', 'confaide', '--tier', '3', '--model', 'acme:x']), /acme/);
  });

  it('a malformed data file is named with its line', async () => {
    const dataDir = join(work, 'bad-data');
    mkdirSync(join(dataDir, 'confaide'), { recursive: true });
    for (const name of readdirSync(join(fixtureDataDir, 'confaide'))) {
      copyFileSync(join(fixtureDataDir, 'confaide', name), join(dataDir, 'confaide', name));
    }
    writeFileSync(join(dataDir, 'confaide', 'tier_1_labels.txt'), 'x\n1.5');
    expectUserError(
      await cli(['run', 'confaide', '--tier', '1', '--model', 'mock:echo', '--data-dir', dataDir]),
      /tier_1_labels\.txt line 1: .*confidant data pull confaide/,
    );
  });

  it('bad suite options', async () => {
    expectUserError(await cli(['run', 'confaide', '--tier', '9', '--model', 'mock:echo']), /tier/);
    expectUserError(await cli(['run', 'confaide', '--model', 'mock:echo']), /tier/);
  });
});

describe('confidant CLI interrupts and data', () => {
  it('Ctrl-C (SIGINT) stops cleanly with exit 3 and the run resumes to completion', async () => {
    handler = (body) => ({ type: 'text', text: echoText(body), latencyMs: 150 });
    const out = join(work, 'interrupted');
    const args = tier3(['--limit', '10', '--concurrency', '1', '--no-cache', '--model', model('sigint'), '--out', out]);
    const { child, done } = startCli({ args, env: env(), cwd: work });
    await waitForRecords({ out, count: 2 }).then(
      () => child.kill('SIGINT'),
      (error: unknown) => {
        child.kill('SIGKILL');
        throw error;
      },
    );
    const stopped = await done;
    expect(stopped.code, stopped.stderr).toBe(3);
    expect(stopped.stderr).toContain('interrupted');
    const runDir = lastLine(stopped.stdout);
    const summary = readSummary(runDir);
    expect(summary.counts.missing).toBeGreaterThan(0);
    handler = echoPrompt;
    const resumed = await cli(['resume', runDir]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(new Set(recordIds(runDir)).size).toBe(10);
    expect(readSummary(runDir).counts).toEqual({ planned: 10, success: 10, error: 0, missing: 0 });
  });

  it(
    'data pull downloads from a mirror and verifies checksums; a corrupted file is refused',
    upstreamConfaide.testOptions,
    async () => {
      const mirror = await startFileServer({
        root: upstreamConfaide.dir,
        // The upstream layout keeps the tier files under benchmark/.
        map: (path) => path.replace(/^\/benchmark\//, '/'),
      });
      try {
        const dataDir = join(work, 'pulled');
        const pulled = await cli(['data', 'pull', 'confaide', '--data-dir', dataDir, '--mirror', mirror.url]);
        expect(pulled.code, pulled.stderr).toBe(0);
        expect(lastLine(pulled.stdout)).toBe(join(dataDir, 'confaide'));
        const verified = await cli(['data', 'verify', 'confaide', '--data-dir', dataDir]);
        expect(verified.code, verified.stderr).toBe(0);
        expect(verified.stdout).toMatch(/ok\s+tier_3\.txt/);

        mirror.corrupt = true;
        const corrupted = await cli([
          'data',
          'pull',
          'confaide',
          '--data-dir',
          join(work, 'pulled-bad'),
          '--mirror',
          mirror.url,
        ]);
        expect(corrupted.code).toBe(2);
        expect(corrupted.stderr).toMatch(/checksum mismatch/);
      } finally {
        await mirror.close();
      }
    },
  );
});

/** A loopback static file server for the pull test; `corrupt` flips one byte of every file. */
async function startFileServer({ root, map }: { root: string; map: (path: string) => string }) {
  const { createServer } = await import('node:http');
  const state = { corrupt: false };
  const server = createServer((request, response) => {
    try {
      const bytes = readFileSync(join(root, map(decodeURIComponent((request.url ?? '/').split('?')[0] ?? '/'))));
      if (state.corrupt && bytes.length > 0) bytes[0] = (bytes[0] ?? 0) ^ 1;
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      response.end(bytes);
    } catch {
      response.writeHead(404);
      response.end('not found');
    }
  });
  await new Promise<void>((resolvePromise) => server.listen(0, '127.0.0.1', resolvePromise));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    set corrupt(value: boolean) {
      state.corrupt = value;
    },
    close: () => new Promise<void>((resolvePromise) => server.close(() => resolvePromise())),
  };
}
