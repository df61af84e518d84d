import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveRecordRefs } from '../../src/store/record-line.js';
import { writePrivacyLensFixture } from '../support/fixture-data.js';
import {
  type ChatCompletionsBody,
  type MockOpenAIServer,
  type MockResponsePlan,
  startMockOpenAIServer,
} from '../support/mock-openai-server.js';
import { privactTreeReply } from '../support/privact-tree-replies.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import { type CliResult, lastLine, runCli, startCli } from '../support/run-cli-process.js';

let work: string;
let server: MockOpenAIServer;
let latencyMs = 0;
/** How often each exact prompt was asked: siblings share one prompt, so this tells them apart. */
const asked = new Map<string, number>();

/** Scripted models over HTTP (see `privactTreeReply`), after `latencyMs`. */
function handle(body: ChatCompletionsBody): MockResponsePlan {
  return { type: 'text', text: privactTreeReply({ body, asked }), latencyMs };
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'confidant-privact-'));
  writePrivacyLensFixture(join(work, 'data'));
  server = await startMockOpenAIServer({ handler: handle, maxRequests: 5000, models: ['chain', 'judge'] });
});

afterAll(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

const env = (): Record<string, string> => ({
  HOME: work,
  // Our own four cases in the upstream format: trees need no upstream data.
  CONFIDANT_DATA_DIR: join(work, 'data'),
  CONFIDANT_CACHE_DIR: join(work, 'cache'),
});
const cli = (args: string[]): Promise<CliResult> => runCli({ args, env: env(), cwd: work });
/**
 * The same CLI program in this process: `export` is a pure reader, so after one export through
 * the real executable the others run here, which keeps the file fast.
 */
function cliHere(args: string[]): Promise<CliResult> {
  return runCliInProcess({ args, env: env(), cwd: work });
}
const model = (name: string) => `openai-compatible:${name}@${server.baseURL}`;
const tree = (args: string[]) => [
  'run',
  'privact-tree',
  '--split',
  'all',
  '--branching',
  '2,2,2',
  '--model',
  model('chain'),
  '--model',
  `judge=${model('judge')}`,
  ...args,
];
/** The JSON lines of a file; a `samples.jsonl` line's references to texts stored once are resolved. */
const jsonLines = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => resolveRecordRefs(JSON.parse(line)) as Record<string, unknown>);

type Summary = {
  counts: Record<string, number>;
  metrics: Record<string, { value: number | null; n: number; errors: number; notApplicable: number }>;
};

describe('confidant run privact-tree + export preferences (loopback HTTP)', () => {
  let runDir = '';

  it('builds 2 judged 2×2×2 trees whose leaves are both chosen and rejected', async () => {
    const result = await cli(tree(['--limit', '2', '--out', join(work, 'runs')]));
    expect(result.code, result.stderr).toBe(0);
    runDir = lastLine(result.stdout);
    const summary = JSON.parse(readFileSync(join(runDir, 'summary.json'), 'utf8')) as Summary;
    expect(summary.counts).toEqual({ planned: 2, success: 2, error: 0, missing: 0 });
    // Per tree: 8 leaves, 2 of them LEAKED (under the approving verifiers).
    expect(summary.metrics.leaf_leak_rate).toEqual(expect.objectContaining({ value: 0.25, n: 16, errors: 0 }));
    expect(summary.metrics.leaves_judged).toEqual({ value: 16, n: 16, errors: 0, notApplicable: 0 });
    expect(summary.metrics.pairs_verifier?.value).toBe(4);
    expect(summary.metrics.pairs_refiner?.value).toBe(8);
    const records = jsonLines(join(runDir, 'samples.jsonl'));
    expect(records).toHaveLength(2);
    const rewards = records.flatMap((record) =>
      (record.scores as Array<{ scorer: string; verdict: string }>).filter(
        (s) => s.scorer === 'privact-lcars-reward@1',
      ),
    );
    expect(rewards.filter((score) => score.verdict === 'pass')).toHaveLength(8);
    expect(rewards.filter((score) => score.verdict === 'fail')).toHaveLength(8);
  });

  it('exports the expected pairs as TRL and OpenAI files with aligned sidecars', async () => {
    const out = join(work, 'pairs');
    const trl = await cli(['export', 'preferences', runDir, '--out', out]);
    expect(trl.code, trl.stderr).toBe(0);
    const written = trl.stdout.trim().split('\n');
    expect(written).toEqual([
      join(out, 'verifier.trl.jsonl'),
      join(out, 'verifier.meta.jsonl'),
      join(out, 'refiner.trl.jsonl'),
      join(out, 'refiner.meta.jsonl'),
      join(out, 'export.json'),
    ]);
    expect(trl.stderr).toContain('pairs per role: verifier 4, refiner 8');
    const verifier = jsonLines(join(out, 'verifier.trl.jsonl'));
    const refiner = jsonLines(join(out, 'refiner.trl.jsonl'));
    expect(verifier).toHaveLength(4);
    expect(refiner).toHaveLength(8);
    for (const line of refiner) {
      expect(Object.keys(line).sort()).toEqual(['chosen', 'prompt', 'rejected']);
      expect(line.prompt).toMatch(/^You are the Refiner/);
    }
    const meta = jsonLines(join(out, 'refiner.meta.jsonl'));
    expect(meta).toHaveLength(8);
    // Aligned: line i of the sidecar names the two leaves whose raw texts line i of the pairs file holds.
    const trees = new Map(
      jsonLines(join(runDir, 'samples.jsonl')).map((record) => [record.id as string, record.output as TreeNodeLike]),
    );
    meta.forEach((entry, index) => {
      expect(entry).toMatchObject({ role: 'refiner', promptMode: 'inference', threshold: 0.5 });
      expect(['fx-leak', 'fx-discreet']).toContain(entry.caseName);
      expect(entry.valueChosen as number).toBeGreaterThanOrEqual(0.5);
      expect(entry.valueRejected as number).toBeLessThan(0.5);
      const root = trees.get(entry.sampleId as string);
      expect(nodeOutput(root, entry.chosenNodeId as string)).toBe(refiner[index]?.chosen);
      expect(nodeOutput(root, entry.rejectedNodeId as string)).toBe(refiner[index]?.rejected);
    });
    expect(refiner.some((line) => String(line.rejected).includes('LEAKED'))).toBe(true);
    expect(refiner.every((line) => !String(line.chosen).includes('LEAKED'))).toBe(true);

    const file = join(work, 'openai', 'refiner.jsonl');
    const openai = await cliHere([
      'export',
      'preferences',
      runDir,
      '--role',
      'refiner',
      '--format',
      'openai',
      '--prompt-style',
      'upstream',
      '--out',
      file,
    ]);
    expect(openai.code, openai.stderr).toBe(0);
    expect(openai.stdout.trim().split('\n')[0]).toBe(file);
    const lines = jsonLines(file);
    expect(lines).toHaveLength(8);
    for (const line of lines) {
      expect(Object.keys(line).sort()).toEqual(['input', 'non_preferred_output', 'preferred_output']);
      const input = line.input as { messages: Array<{ role: string; content: string }> };
      expect(input.messages.map((message) => message.role)).toEqual(['user']);
      expect(input.messages[0]?.content).toMatch(/^You are the Generator[\s\S]*\n## REFINER\n/);
      expect(line.preferred_output).toEqual([{ role: 'assistant', content: expect.any(String) }]);
    }
    expect(jsonLines(join(work, 'openai', 'refiner.meta.jsonl'))[0]?.promptMode).toBe('upstream');

    // A stricter b2 moves the tie: every safe leaf passes τ at b2 0.5, so only LEAKED leaves are rejected.
    const lifted = await cliHere([
      'export',
      'preferences',
      runDir,
      '--role',
      'refiner',
      '--b2',
      '0.5',
      '--out',
      join(work, 'lifted'),
    ]);
    expect(lifted.code, lifted.stderr).toBe(0);
    expect(jsonLines(join(work, 'lifted', 'refiner.trl.jsonl'))).toHaveLength(4);
  });

  it('user errors exit 2 with one line', async () => {
    const expectUserError = (result: CliResult, pattern: RegExp) => {
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(pattern);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    };
    const out = ['--out', join(work, 'never')];
    // Through the real executable once, then in process.
    expectUserError(await cli(['export', 'preferences', runDir, '--role', 'critic', ...out]), /unknown role 'critic'/);
    expectUserError(
      await cliHere(['export', 'preferences', runDir, '--threshold', 'high', ...out]),
      /--threshold expects a number/,
    );
    expectUserError(
      await cliHere(['export', 'preferences', runDir, '--format', 'csv', ...out]),
      /unknown --format 'csv'/,
    );
    mkdirSync(join(work, 'empty'), { recursive: true });
    expectUserError(
      await cliHere(['export', 'preferences', join(work, 'empty'), ...out]),
      /not a confidant run directory/,
    );
    // A run of another suite: the same header, naming privacylens.
    const other = join(work, 'other-run');
    mkdirSync(other, { recursive: true });
    const header = JSON.parse(readFileSync(join(runDir, 'header.json'), 'utf8')) as { suite: { id: string } };
    writeFileSync(
      join(other, 'header.json'),
      JSON.stringify({ ...header, suite: { ...header.suite, id: 'privacylens' } }),
    );
    expectUserError(
      await cliHere(['export', 'preferences', other, ...out]),
      /is a 'privacylens' run, not a privact-tree run/,
    );
    expect(readdirSync(work)).not.toContain('never');
  });

  it('a build whose helpfulness judge always failed exports nothing: exit 2 saying why', async () => {
    const build = await cli([
      'run',
      'privact-tree',
      '--split',
      'all',
      '--branching',
      '1,1,2',
      '--limit',
      '1',
      '--model',
      model('chain'),
      '--model',
      `judge=${model('badjudge')}`,
      '--out',
      join(work, 'bad-judge'),
    ]);
    // Every sample has a failed judge call: over --max-error-rate, so the build itself exits 4.
    expect(build.code, build.stderr).toBe(4);
    const exported = await cliHere(['export', 'preferences', lastLine(build.stdout), '--out', join(work, 'no-pairs')]);
    expect(exported.code).toBe(2);
    expect(exported.stderr).toMatch(
      /^confidant: no preference pair to export for verifier, refiner: every leaf's helpfulness judge failed \(2 of 2 leaves\): JudgeParseError: the reply did not parse after 3 attempt\(s\)/,
    );
    expect(readdirSync(work)).not.toContain('no-pairs');
  });

  it('under --fidelity upstream the same unreadable helpfulness replies are Poor (0), as upstream reads them', async () => {
    const build = await cli([
      'run',
      'privact-tree',
      '--split',
      'all',
      '--branching',
      '1,1,2',
      '--limit',
      '1',
      '--model',
      model('chain'),
      '--model',
      `judge=${model('badjudge')}`,
      '--fidelity',
      'upstream',
      '--out',
      join(work, 'bad-judge-upstream'),
    ]);
    expect(build.code, build.stderr).toBe(0);
    const summary = JSON.parse(readFileSync(join(lastLine(build.stdout), 'summary.json'), 'utf8')) as Summary;
    expect(summary.metrics.helpfulness).toMatchObject({ value: 0, n: 2, errors: 0 });
  }, 300_000);

  it('Ctrl-C keeps every finished tree; resume completes the build with one record per tree', async () => {
    latencyMs = 15;
    const out = join(work, 'interrupted');
    const { child, done } = startCli({
      args: tree(['--limit', '3', '--concurrency', '1', '--no-cache', '--out', out]),
      env: env(),
      cwd: work,
    });
    await waitForRecords({ out, count: 1 }).then(
      () => child.kill('SIGINT'),
      (error: unknown) => {
        child.kill('SIGKILL');
        throw error;
      },
    );
    const stopped = await done;
    expect(stopped.code, stopped.stderr).toBe(3);
    const dir = lastLine(stopped.stdout);
    const kept = jsonLines(join(dir, 'samples.jsonl'));
    expect(kept.length).toBeGreaterThanOrEqual(1);
    expect(kept.length).toBeLessThan(3);
    latencyMs = 0;
    const resumed = await cli(['resume', dir]);
    expect(resumed.code, resumed.stderr).toBe(0);
    const ids = jsonLines(join(dir, 'samples.jsonl')).map((record) => record.id);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
    expect(ids.slice(0, kept.length)).toEqual(kept.map((record) => record.id));
  });
});

/** A stored tree as far as these tests read it. */
type TreeNodeLike = { nodeId?: string; output?: string | null; root?: TreeNodeLike; children?: TreeNodeLike[] };

/** The raw output of node `nodeId` in a stored tree, or undefined. */
function nodeOutput(tree: TreeNodeLike | undefined, nodeId: string): string | null | undefined {
  const visit = (node: TreeNodeLike | undefined): string | null | undefined => {
    if (node === undefined) return undefined;
    if (node.nodeId === nodeId) return node.output;
    for (const child of node.children ?? []) {
      const found = visit(child);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return visit(tree?.root);
}

/** Polls `out` until its run directory holds `count` records. */
function waitForRecords({ out, count, timeoutMs = 30_000 }: { out: string; count: number; timeoutMs?: number }) {
  return new Promise<string>((resolvePromise, reject) => {
    const started = Date.now();
    const poll = setInterval(() => {
      try {
        const entry = readdirSync(out, { withFileTypes: true }).find((candidate) => candidate.isDirectory());
        const dir = entry ? join(out, entry.name) : null;
        if (dir && jsonLines(join(dir, 'samples.jsonl')).length >= count) {
          clearInterval(poll);
          resolvePromise(dir);
          return;
        }
      } catch {
        // Not written yet.
      }
      if (Date.now() - started > timeoutMs) {
        clearInterval(poll);
        reject(new Error(`the run never wrote ${count} samples`));
      }
    }, 20);
  });
}
