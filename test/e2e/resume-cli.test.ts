import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockOpenAIServer, startMockOpenAIServer } from '../support/mock-openai-server.js';
import { type CliResult, lastLine, runCli, startCli } from '../support/run-cli-process.js';

type Header = {
  planHash: string;
  plan: { models: Array<{ role: string; spec: string }>; concurrency: number };
  invocation?: { cwd: string; dataDir: string; cacheDir: string };
  resumes?: Array<{ changed: Record<string, { from: unknown; to: unknown }> }>;
};
type Record_ = { id: string; status: 'ok' | 'error' };

let work: string;
let server: MockOpenAIServer;
let spare: MockOpenAIServer;
/** While set, chat requests wait until `release()`: a run that stays live as long as a test needs. */
let holding = false;
const waiting: Array<() => void> = [];
let failing = false;

function release() {
  holding = false;
  for (const resume of waiting.splice(0)) resume();
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'confidant-resume-'));
  server = await startMockOpenAIServer({
    models: ['m'],
    handler: async () => {
      if (holding) await new Promise<void>((resolve) => waiting.push(resolve));
      return failing ? { type: 'status', status: 500 } : { type: 'text', text: 'I cannot share that.' };
    },
  });
  spare = await startMockOpenAIServer({ models: ['m'] });
});

afterAll(async () => {
  release();
  await server.close();
  await spare.close();
  rmSync(work, { recursive: true, force: true });
});

const env = (extra: Record<string, string> = {}) => ({
  HOME: work,
  CONFIDANT_CACHE_DIR: join(work, 'cache'),
  ...extra,
});
const cli = (args: string[], options: { env?: Record<string, string>; cwd?: string } = {}): Promise<CliResult> =>
  runCli({ args, env: options.env ?? env(), cwd: options.cwd ?? work });
const toy = (out: string, extra: string[] = []) => [
  'run',
  'toy-leak',
  '--model',
  `openai-compatible:m@${server.baseURL}`,
  '--concurrency',
  '1',
  '--no-cache',
  '--out',
  out,
  ...extra,
];
const header = (runDir: string) => JSON.parse(readFileSync(join(runDir, 'header.json'), 'utf8')) as Header;
const records = (runDir: string): Record_[] =>
  (existsSync(join(runDir, 'samples.jsonl')) ? readFileSync(join(runDir, 'samples.jsonl'), 'utf8') : '')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record_);

/** Waits until a run directory under `out` is locked and a chat request is in flight. */
async function liveRun(out: string): Promise<string> {
  for (let tries = 0; tries < 600; tries++) {
    const names = existsSync(out) ? readdirSync(out) : [];
    const dir = names.map((name) => join(out, name)).find((candidate) => existsSync(join(candidate, 'run.lock')));
    if (dir && waiting.length > 0) return dir;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no live run appeared in ${out}`);
}

/** The PID of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('one writer per run directory', () => {
  it('refuses a second writer on a live run, naming the holder, without calling any model', async () => {
    holding = true;
    const out = join(work, 'live');
    const { child, done } = startCli({ args: toy(out), env: env(), cwd: work });
    const runDir = await liveRun(out);
    const calls = server.count;
    const listings = server.modelListings;
    const second = await cli(['resume', runDir]);
    expect(second.code).toBe(2);
    expect(second.stderr).toMatch(
      new RegExp(
        `^confidant: run directory ${runDir} is being written by PID ${child.pid} on host ${hostname()} \\(confidant run, since \\S+\\); wait for it to finish, or stop it \\(Ctrl-C, or kill ${child.pid}\\) and run the command again\\n$`,
      ),
    );
    expect(server.count).toBe(calls);
    expect(server.modelListings).toBe(listings);
    release();
    const first = await done;
    expect(first.code, first.stderr).toBe(0);
    expect(records(runDir).map((record) => record.status)).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(existsSync(join(runDir, 'run.lock'))).toBe(false);
  });

  it('takes over the lock of a dead process on this host, and never one from another host', async () => {
    const done = await cli(toy(join(work, 'stale')));
    const runDir = lastLine(done.stdout);
    const lockFile = join(runDir, 'run.lock');
    const stale = { command: 'confidant run', startedAt: '2026-11-30T22:00:00.000Z', token: 'x' };
    writeFileSync(lockFile, JSON.stringify({ ...stale, pid: 12345, host: 'gpu-node-7' }));
    const foreign = await cli(['resume', runDir]);
    expect(foreign.code).toBe(2);
    expect(foreign.stderr).toContain(
      `is being written by PID 12345 on host gpu-node-7 (confidant run, since 2026-11-30T22:00:00.000Z); this host cannot tell whether that process still runs. Wait for it to finish; if host gpu-node-7 is down or the process is gone, delete ${lockFile} and run the command again`,
    );
    const pid = deadPid();
    writeFileSync(lockFile, JSON.stringify({ ...stale, pid, host: hostname() }));
    // A header written before `invocation` existed still resumes, and learns it.
    const old = JSON.parse(readFileSync(join(runDir, 'header.json'), 'utf8')) as Record<string, unknown>;
    delete old.invocation;
    writeFileSync(join(runDir, 'header.json'), JSON.stringify(old, null, 2));
    const resumed = await cli(['resume', runDir]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(
      `note: took over the lock of ${runDir} from PID ${pid} (confidant run, since 2026-11-30T22:00:00.000Z), which is no longer running\n`,
    );
    expect(existsSync(lockFile)).toBe(false);
    expect(header(runDir).invocation).toEqual({
      cwd: work,
      dataDir: join(work, '.cache', 'confidant', 'datasets'),
      cacheDir: join(work, 'cache'),
    });
  });
});

describe('confidant resume', () => {
  it('works as printed from another directory with no environment variables', async () => {
    holding = true;
    const start = join(work, 'start');
    mkdirSync(start, { recursive: true });
    const runEnv = env({ CONFIDANT_CACHE_DIR: join(work, 'cache-a'), CONFIDANT_DATA_DIR: join(work, 'data-a') });
    const { child, done } = startCli({ args: toy('runs'), env: runEnv, cwd: start });
    const runDir = await liveRun(join(start, 'runs'));
    child.kill('SIGINT');
    release();
    const stopped = await done;
    expect(stopped.code, stopped.stderr).toBe(3);
    const printed = /continue with: (confidant resume \S+)$/m.exec(stopped.stderr)?.[1];
    expect(printed).toBe(`confidant resume ${runDir}`);
    expect(existsSync(join(runDir, 'run.lock'))).toBe(false);
    expect(records(runDir).length).toBeLessThan(4);

    const elsewhere = join(work, 'elsewhere');
    const home = join(work, 'empty-home');
    mkdirSync(elsewhere, { recursive: true });
    mkdirSync(home, { recursive: true });
    const resumed = await cli(printed!.split(' ').slice(1), { env: { HOME: home }, cwd: elsewhere });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(lastLine(resumed.stdout)).toBe(runDir);
    expect(
      new Set(
        records(runDir)
          .filter((record) => record.status === 'ok')
          .map((record) => record.id),
      ).size,
    ).toBe(4);
    // The recorded directories were used, not ones derived from this cwd, HOME or the environment.
    expect(header(runDir).invocation).toEqual({
      cwd: start,
      dataDir: join(work, 'data-a'),
      cacheDir: join(work, 'cache-a'),
    });
    expect(existsSync(join(home, '.cache'))).toBe(false);
    expect(readdirSync(join(work, 'cache-a')).length).toBeGreaterThan(0);
  });

  it('accepts safe overrides (a new base URL for the same model, concurrency) and records them', async () => {
    failing = true;
    const failed = await cli(toy(join(work, 'moved'), ['--max-retries', '0']));
    failing = false;
    const runDir = lastLine(failed.stdout);
    expect(records(runDir).map((record) => record.status)).toEqual(['error', 'error', 'error', 'error']);
    const before = header(runDir);
    const spareCalls = spare.count;
    const resumed = await cli([
      'resume',
      runDir,
      '--retry-errors',
      '--model',
      `openai-compatible:m@${spare.baseURL}`,
      '--concurrency',
      '2',
    ]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(
      `resume overrides: concurrency 2 (was 1); models.agent ${spare.baseURL} (was ${server.baseURL}) (recorded in header.json)`,
    );
    expect(spare.count - spareCalls).toBe(4);
    const after = header(runDir);
    expect(after.planHash).toBe(before.planHash);
    expect(after.plan.models).toEqual([{ role: 'agent', spec: `openai-compatible:m@${spare.baseURL}` }]);
    expect(after.plan.concurrency).toBe(2);
    expect(after.resumes?.[0]?.changed).toEqual({
      concurrency: { from: 1, to: 2 },
      'models.agent': { from: [server.baseURL], to: [spare.baseURL] },
    });
  });

  it('refuses what would change the plan, saying to start a new run', async () => {
    const done = await cli(toy(join(work, 'refused')));
    const runDir = lastLine(done.stdout);
    const flags = await cli([
      'resume',
      runDir,
      '--epochs',
      '2',
      '--tier',
      '1',
      '--set',
      'k=v',
      '--fidelity',
      'upstream',
    ]);
    expect(flags.code).toBe(2);
    expect(flags.stderr).toContain(
      'confidant: resume continues a run exactly as its header.json plans it, so it cannot take --set (it defines what the run measures); --fidelity (it defines what the run measures); --epochs (it defines what the run measures); --tier (it sets suite option tier, which defines what the run measures). To change that, start a new run (confidant run toy-leak …); resume accepts only',
    );
    const model = await cli(['resume', runDir, '--model', `openai-compatible:other@${server.baseURL}`]);
    expect(model.code).toBe(2);
    expect(model.stderr).toContain(
      "confidant: resume can move role 'agent' to a new base URL but not change its model: the run uses openai-compatible:m, not openai-compatible:other. A different model measures something else: start a new run",
    );
  });
});
