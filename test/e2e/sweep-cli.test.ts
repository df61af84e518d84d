import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import {
  echoHandler,
  type MockHandler,
  type MockOpenAIServer,
  refuseHandler,
  startMockOpenAIServer,
} from '../support/mock-openai-server.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import { lastLine, repoRoot, startCli } from '../support/run-cli-process.js';
import { fixtureDataDir } from '../support/test-data.js';

type Summary = {
  counts: { planned: number; success: number; error: number; missing: number };
  metrics: Record<string, { value: number | null; n: number }>;
};
type TableJson = {
  rows: string[];
  cols: string[];
  metrics: Array<{ id: string }>;
  entries: Array<
    Array<
      Array<{
        cellId: string | null;
        status: string;
        value: { value: number | null; n: number } | null;
        reason?: string;
      }>
    >
  >;
  counts: Record<string, number>;
};

let work: string;
let server: MockOpenAIServer;
/** Echoes the prompt without its answer cue (every subject leaks: fr_e = 1). */
const echoPrompt: MockHandler = (body) => ({
  type: 'text',
  text: (echoHandler(body, 0) as { text: string }).text.replace(/\n?Answer:\s*"?\s*$/, ''),
});
let slowMs = 0;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'confidant-sweep-'));
  server = await startMockOpenAIServer({
    models: ['echo', 'refuse', 'echo2', 'broken', 'slow'],
    handler: async (body, index) => {
      if (body.model === 'refuse') return refuseHandler(body, index);
      if (body.model === 'broken') return { type: 'status', status: 500, body: 'internal error' };
      if (body.model === 'slow')
        return { ...(echoPrompt(body, index) as { type: 'text'; text: string }), latencyMs: slowMs };
      return echoPrompt(body, index);
    },
  });
});

afterAll(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

const env = (dir: string) => ({
  HOME: dir,
  CONFIDANT_DATA_DIR: fixtureDataDir,
  CONFIDANT_CACHE_DIR: join(dir, 'cache'),
});

const model = (name: string) => `agent=openai-compatible:${name}@${server.baseURL}`;

/** A 2 × 2 × 2 sweep of ConfAIde tier 3 (12 samples per epoch): models × defenses × epochs. */
function sweepYaml({ models, extra = '' }: { models: string[]; extra?: string }): string {
  return [
    'name: table',
    'settings:',
    '  suite: confaide',
    '  tier: "3"',
    '  questions: free-response',
    '  concurrency: 2',
    'axes:',
    '  model:',
    ...models.map((name) => `    ${name}: { model: ["${model(name)}"] }`),
    '  defense:',
    '    vanilla: { defense: [vanilla] }',
    '    ppe: { defense: [privacy-prompt] }',
    '  epochs:',
    '    e1: { epochs: 1 }',
    '    e2: { epochs: 2 }',
    extra,
    '',
  ].join('\n');
}

function newDir(name: string): string {
  const dir = join(work, name);
  execFileSync('mkdir', ['-p', dir]);
  return dir;
}

const sweep = (dir: string, args: string[]) => runCliInProcess({ args: ['sweep', ...args], env: env(dir), cwd: dir });

/** Each cell's run directory and the ids in its samples.jsonl, in file order. */
function cellRecords(sweepDir: string): Record<string, string[]> {
  const result: Record<string, string[]> = {};
  for (const cell of readdirSync(join(sweepDir, 'cells'))) {
    const runs = readdirSync(join(sweepDir, 'cells', cell));
    expect(runs).toHaveLength(1);
    const text = readFileSync(join(sweepDir, 'cells', cell, runs[0] ?? '', 'samples.jsonl'), 'utf8');
    result[cell] = text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => (JSON.parse(line) as { id: string }).id);
  }
  return result;
}

function cellSummary(sweepDir: string, cell: string): Summary {
  const runs = readdirSync(join(sweepDir, 'cells', cell));
  return JSON.parse(readFileSync(join(sweepDir, 'cells', cell, runs[0] ?? '', 'summary.json'), 'utf8')) as Summary;
}

async function tableJson(dir: string, sweepDir: string, args: string[] = []): Promise<TableJson> {
  const result = await sweep(dir, [
    'report',
    sweepDir,
    '--format',
    'json',
    '--rows',
    'model,epochs',
    '--cols',
    'defense',
    ...args,
  ]);
  return JSON.parse(result.stdout) as TableJson;
}

describe('confidant sweep', { timeout: 300_000 }, () => {
  it('runs a 2 × 2 × 2 sweep into one table; a re-run reuses every cell; a new model runs only its cells', async () => {
    const dir = newDir('full');
    writeFileSync(join(dir, 'sweep.yaml'), sweepYaml({ models: ['echo', 'refuse'] }));
    const first = await sweep(dir, ['run', 'sweep.yaml', '--out', 'out']);
    expect(first.stderr).toContain('8 ran, 0 resumed, 0 reused, 0 failed of 8 cells');
    expect(first.code).toBe(0);
    expect(lastLine(first.stdout)).toBe(join(dir, 'out'));
    const records = cellRecords(join(dir, 'out'));
    expect(Object.keys(records).sort()).toEqual([
      'echo__ppe__e1',
      'echo__ppe__e2',
      'echo__vanilla__e1',
      'echo__vanilla__e2',
      'refuse__ppe__e1',
      'refuse__ppe__e2',
      'refuse__vanilla__e1',
      'refuse__vanilla__e2',
    ]);
    for (const [cell, ids] of Object.entries(records)) {
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toHaveLength(cell.endsWith('e2') ? 24 : 12);
    }
    expect(cellSummary(join(dir, 'out'), 'echo__vanilla__e2').metrics.fr_e).toMatchObject({ value: 1, n: 12 });
    expect(cellSummary(join(dir, 'out'), 'refuse__ppe__e1').metrics.fr_e).toMatchObject({ value: 0, n: 12 });

    const table = await tableJson(dir, join(dir, 'out'), ['--metric', 'fr_e']);
    expect(table.rows).toEqual(['echo · e1', 'echo · e2', 'refuse · e1', 'refuse · e2']);
    expect(table.cols).toEqual(['vanilla', 'ppe']);
    expect(table.entries.map((row) => row.map((col) => col[0]?.value?.value))).toEqual([
      [1, 1],
      [1, 1],
      [0, 0],
      [0, 0],
    ]);
    expect(table.counts).toEqual({ ok: 8, incomplete: 0, failed: 0, missing: 0 });
    const markdown = await sweep(dir, ['report', 'out', '--rows', 'model,epochs', '--metric', 'fr_e']);
    expect(markdown.code).toBe(0);
    expect(markdown.stdout).toContain('| echo · e2 | 100.0 [');
    expect(markdown.stdout).toMatch(/echo · e1: ppe vs vanilla, .*McNemar p = 1\.00/);

    const calls = server.count;
    const again = await sweep(dir, ['run', 'sweep.yaml', '--out', 'out']);
    expect(again.stderr).toContain('0 ran, 0 resumed, 8 reused, 0 failed of 8 cells');
    expect(server.count).toBe(calls);

    writeFileSync(join(dir, 'sweep.yaml'), sweepYaml({ models: ['echo', 'refuse', 'echo2'] }));
    const more = await sweep(dir, ['run', 'sweep.yaml', '--out', 'out', '--no-preflight']);
    expect(more.stderr).toContain('4 ran, 0 resumed, 8 reused, 0 failed of 12 cells');
    expect(more.stderr.match(/^cell echo2__\S+: running/gm)).toHaveLength(4);
    expect(Object.keys(cellRecords(join(dir, 'out')))).toHaveLength(12);
  });

  it('after kill -9 mid-sweep, the same command finishes only the missing work, no sample twice', async () => {
    const dir = newDir('killed');
    writeFileSync(
      join(dir, 'sweep.yaml'),
      sweepYaml({ models: ['slow', 'refuse'] }).replace('concurrency: 2', 'concurrency: 1'),
    );
    slowMs = 150;
    const started = startCli({ args: ['sweep', 'run', 'sweep.yaml', '--out', 'out'], env: env(dir), cwd: dir });
    let stderr = '';
    started.child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    // Kill once the first cell finished and the second is under way.
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        if (/cell slow__vanilla__e1: ran/.test(stderr) && /cell slow__vanilla__e2: running/.test(stderr)) {
          clearInterval(timer);
          resolve();
        }
      }, 20);
    });
    await new Promise((resolve) => setTimeout(resolve, 400));
    started.child.kill('SIGKILL');
    await started.done;
    slowMs = 0;
    const finished = await sweep(dir, ['run', 'sweep.yaml', '--out', 'out']);
    expect(finished.code, finished.stderr).toBe(0);
    expect(finished.stderr).toMatch(/cell slow__vanilla__e1: reused/);
    expect(finished.stderr).toMatch(/cell slow__vanilla__e2: resum/);
    for (const [cell, ids] of Object.entries(cellRecords(join(dir, 'out')))) {
      expect(new Set(ids).size, cell).toBe(ids.length);
      expect(ids, `${cell}: ${finished.stderr}`).toHaveLength(cell.endsWith('e2') ? 24 : 12);
    }
  });

  it('a cell whose model fails shows as failed in the table with its reason, never as a number', async () => {
    const dir = newDir('broken');
    writeFileSync(
      join(dir, 'sweep.yaml'),
      sweepYaml({ models: ['refuse', 'broken'] }).replace('concurrency: 2', 'concurrency: 2\n  maxRetries: 0'),
    );
    const result = await sweep(dir, ['run', 'sweep.yaml', '--out', 'out', '--no-preflight']);
    // Fail-fast stops each broken cell (exit 3: resumable once the model is fixed).
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toMatch(
      /cell broken__vanilla__e1: stopped early, resumable: 0 ok, 6 errored, 6 missing of 12/,
    );
    expect(result.stderr).toMatch(/cell refuse__vanilla__e1: ran: 12 ok, 0 errored, 0 missing of 12/);
    const table = await tableJson(dir, join(dir, 'out'), ['--metric', 'fr_e']);
    const broken = table.entries[table.rows.indexOf('broken · e1')]?.[0]?.[0];
    expect(broken).toMatchObject({ status: 'failed', value: null });
    expect(broken?.reason).toMatch(/6 of 6 samples failed; most common cause: .*500/);
    expect(table.counts).toEqual({ ok: 4, incomplete: 0, failed: 4, missing: 0 });
    const markdown = await sweep(dir, ['report', 'out', '--rows', 'model,epochs']);
    expect(markdown.code).toBe(4);
    expect(markdown.stdout).toMatch(/\| broken · e1 \| error \|/);
  });

  it("a cell whose judge fails shows as failed in the table with the judge's cause", async () => {
    const dir = newDir('judge');
    writeFileSync(
      join(dir, 'sweep.yaml'),
      [
        'name: judged',
        'settings:',
        '  suite: privacylens',
        `  dataDir: ${join(repoRoot, 'docs', 'suites', 'examples', 'privacylens')}`,
        '  model: ["agent=mock:echo"]',
        '  maxRetries: 0',
        'axes:',
        '  judge:',
        '    safe: { model: ["judge=mock:judge-safe"] }',
        `    broken: { model: ["judge=openai-compatible:broken@${server.baseURL}"] }`,
        '',
      ].join('\n'),
    );
    const run = await sweep(dir, ['run', 'sweep.yaml', '--out', 'out', '--no-preflight']);
    expect(run.code, run.stderr).toBe(4);
    expect(run.stderr).toMatch(/cell broken: ran: 2 ok, 0 errored, 2 with a judge error/);
    expect(run.stderr).toMatch(/cell safe: ran: \d+ ok, 0 errored/);
    const report = await sweep(dir, ['report', 'out', '--rows', 'judge', '--format', 'json']);
    expect(report.code).toBe(4);
    const table = JSON.parse(report.stdout) as TableJson;
    const broken = table.entries[table.rows.indexOf('broken')]?.[0]?.[0];
    expect(broken).toMatchObject({ status: 'failed', value: null });
    expect(broken?.reason).toMatch(/samples failed; most common cause: .*500/);
    expect(table.entries[table.rows.indexOf('safe')]?.[0]?.[0]?.status).toBe('ok');
    const markdown = await sweep(dir, ['report', 'out', '--rows', 'judge']);
    expect(markdown.stdout).toMatch(/\| broken \| error \|/);
  });

  it('three shards run by the emitted shell script and merged equal the unsharded sweep', async () => {
    const dir = newDir('sharded');
    writeFileSync(join(dir, 'sweep.yaml'), sweepYaml({ models: ['echo', 'refuse'] }));
    const tsx = pathToFileURL(join(repoRoot, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
    const command = `${process.execPath} --import ${tsx} ${join(repoRoot, 'src', 'cli', 'main.ts')}`;
    const plan = await sweep(dir, [
      'plan',
      'sweep.yaml',
      '--shards',
      '3',
      '--emit',
      'shell',
      '--out',
      'sharded',
      '--command',
      command,
      '--write',
      'run.sh',
    ]);
    expect(plan.code).toBe(0);
    execFileSync('sh', ['-n', 'run.sh'], { cwd: dir });
    // Asynchronously: the loopback server answering the shards runs in this process.
    await promisify(execFile)('sh', ['run.sh'], { cwd: dir, env: { PATH: process.env.PATH ?? '', ...env(dir) } });
    for (const index of [1, 2, 3])
      expect(readdirSync(join(dir, 'sharded', 'shards', `${index}-of-3`, 'cells'))).toHaveLength(8);
    const unsharded = await sweep(dir, ['run', 'sweep.yaml', '--out', 'plain']);
    expect(unsharded.code).toBe(0);
    const values = (table: TableJson) =>
      table.entries.map((row) =>
        row.map((col) => col.map((entry) => [entry.status, entry.value?.value, entry.value?.n])),
      );
    const merged = await tableJson(dir, join(dir, 'sharded'));
    expect(merged.counts.ok).toBe(8);
    expect(values(merged)).toEqual(values(await tableJson(dir, join(dir, 'plain'))));
    const sharded = cellRecords(join(dir, 'sharded'));
    const plain = cellRecords(join(dir, 'plain'));
    for (const cell of Object.keys(plain))
      expect([...(sharded[cell] ?? [])].sort()).toEqual([...(plain[cell] ?? [])].sort());
    const again = await sweep(dir, ['merge', 'sharded']);
    expect(again.stderr).toContain('merged 0 cells, 8 already merged');
  });

  it('emits Slurm, Kubernetes and GitHub Actions job files that parse and carry the shard indices', async () => {
    const dir = newDir('emit');
    writeFileSync(join(dir, 'sweep.yaml'), sweepYaml({ models: ['echo', 'refuse'] }));
    const emit = async (engine: string) => {
      const result = await sweep(dir, ['plan', 'sweep.yaml', '--shards', '4', '--emit', engine, '--out', 'shared/sw']);
      expect(result.code).toBe(0);
      return result.stdout;
    };
    const slurm = await emit('slurm');
    expect(slurm).toContain('#SBATCH --array=1-4');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the job script's own shell variable, written literally
    expect(slurm).toContain('sweep run sweep.yaml --out shared/sw --shard "${SLURM_ARRAY_TASK_ID}/4"');
    writeFileSync(join(dir, 'job.sbatch'), slurm);
    execFileSync('bash', ['-n', 'job.sbatch'], { cwd: dir });

    const k8s = parseYaml(await emit('k8s')) as {
      kind: string;
      spec: {
        completionMode: string;
        completions: number;
        parallelism: number;
        template: { spec: { containers: Array<{ command: string[] }> } };
      };
    };
    expect(k8s).toMatchObject({ kind: 'Job', spec: { completionMode: 'Indexed', completions: 4, parallelism: 4 } });
    expect(k8s.spec.template.spec.containers[0]?.command[2]).toContain('--shard "$((JOB_COMPLETION_INDEX + 1))/4"');

    const gha = parseYaml(await emit('github-actions')) as {
      jobs: {
        shard: { strategy: { matrix: { shard: number[] } }; steps: Array<{ run?: string }> };
        merge: { needs: string; steps: Array<{ run?: string }> };
      };
    };
    expect(gha.jobs.shard.strategy.matrix.shard).toEqual([1, 2, 3, 4]);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, written literally
    expect(gha.jobs.shard.steps.some((step) => step.run?.includes('--shard "${{ matrix.shard }}/4"'))).toBe(true);
    expect(gha.jobs.merge.needs).toBe('shard');
    expect(gha.jobs.merge.steps.some((step) => step.run === 'npx confidant sweep merge shared/sw')).toBe(true);

    const unknown = await sweep(dir, ['plan', 'sweep.yaml', '--emit', 'nomad']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown engine 'nomad' for --emit: use shell, slurm, k8s, github-actions/);
  });

  it('bad sweep files and a changed cell plan are user errors (exit 2) that run nothing', async () => {
    const dir = newDir('errors');
    writeFileSync(
      join(dir, 'bad.yaml'),
      sweepYaml({ models: ['echo', 'refuse'], extra: 'exclude:\n  - { modle: echo }' }),
    );
    const typo = await sweep(dir, ['run', 'bad.yaml']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(
      /exclude\[0\] names axis 'modle', which the sweep does not have \(axes: model, defense, epochs\)/,
    );

    writeFileSync(join(dir, 'nosuite.yaml'), sweepYaml({ models: ['echo'] }).replace('  suite: confaide\n', ''));
    const noSuite = await sweep(dir, ['run', 'nosuite.yaml']);
    expect(noSuite.code).toBe(2);
    expect(noSuite.stderr).toMatch(/cell echo__vanilla__e1: no suite/);

    writeFileSync(join(dir, 's.yaml'), sweepYaml({ models: ['refuse'] }));
    expect((await sweep(dir, ['run', 's.yaml', '--out', 'out'])).code).toBe(0);
    writeFileSync(join(dir, 's.yaml'), sweepYaml({ models: ['refuse'] }).replace('tier: "3"', 'tier: "3"\n  seed: 7'));
    const calls = server.count;
    const changed = await sweep(dir, ['run', 's.yaml', '--out', 'out']);
    expect(changed.code).toBe(2);
    expect(changed.stderr).toMatch(/cell refuse__vanilla__e1 was run with another plan/);
    expect(server.count).toBe(calls);

    const notSweep = await sweep(dir, ['report', 'nowhere']);
    expect(notSweep.code).toBe(2);
    expect(notSweep.stderr).toMatch(/is not a sweep directory \(no sweep\.json\)/);
  });
});
