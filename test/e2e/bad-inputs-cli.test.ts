import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MERGE_INCOMPLETE_MARKER } from '../../src/store/index.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import type { CliResult } from '../support/run-cli-process.js';

/**
 * Bad inputs a careless user gives: each ends with exit 2, one clear message and no stack trace,
 * never exit 1, a hang or a "successful" run of nothing. One test per input.
 */

let work: string;
let runDir: string;

function cli(args: string[]): Promise<CliResult> {
  return runCliInProcess({
    args,
    env: { HOME: work, CONFIDANT_CACHE_DIR: join(work, 'cache'), CONFIDANT_DATA_DIR: join(work, 'no-data') },
    cwd: work,
  });
}

function expectUserError(result: CliResult, message: string | RegExp): void {
  expect(result.code, result.stderr).toBe(2);
  const lines = result.stderr.trim().split('\n');
  const last = lines.at(-1) ?? '';
  if (typeof message === 'string') expect(last).toContain(message);
  else expect(last).toMatch(message);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(result.stderr).not.toContain('internal error');
}

/** A data dir holding a copy of `name` with the given files (contents do not matter to the checks). */
function dataDir(name: string, files: Record<string, string | { dir: true } | { link: string }>): string {
  const root = mkdtempSync(join(work, 'data-'));
  mkdirSync(join(root, name));
  for (const [file, content] of Object.entries(files)) {
    const path = join(root, name, file);
    mkdirSync(join(path, '..'), { recursive: true });
    if (typeof content === 'string') writeFileSync(path, content);
    else if ('dir' in content) mkdirSync(path);
    else symlinkSync(content.link, path);
  }
  return root;
}

/** A copy of the finished toy-leak run, for damaging. */
function copyOfRun(name: string): string {
  const copy = join(work, name);
  cpSync(runDir, copy, { recursive: true });
  return copy;
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'confidant-bad-inputs-'));
  writeFileSync(join(work, 'a-file'), 'not a folder\n');
  const done = await cli(['run', 'toy-leak', '--model', 'mock:echo', '--out', join(work, 'runs')]);
  expect(done.code, done.stderr).toBe(0);
  runDir = join(work, 'runs', readdirSync(join(work, 'runs'))[0]!);
});

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe('dataset files', () => {
  it('a dataset file that is a directory', async () => {
    const root = dataDir('confaide', { 'tier_1.txt': { dir: true } });
    const result = await cli(['run', 'confaide', '--tier', '1', '--model', 'mock:echo', '--data-dir', root]);
    expectUserError(result, `dataset 'confaide' in ${join(root, 'confaide')} is incomplete: tier_1.txt is a directory`);
  });

  it('a dataset file that is a dangling symlink', async () => {
    const root = dataDir('confaide', { 'tier_2a.txt': { link: join(work, 'nothing-here') } });
    const result = await cli(['run', 'confaide', '--tier', '2a', '--model', 'mock:echo', '--data-dir', root]);
    expectUserError(result, 'tier_2a.txt is a symlink to nothing');
  });

  it('an empty tier_4.txt (never a successful run of 0 samples)', async () => {
    const root = dataDir('confaide', { 'tier_4.txt': '' });
    const result = await cli(['run', 'confaide', '--tier', '4', '--model', 'mock:echo', '--data-dir', root]);
    expectUserError(result, 'tier_4.txt is empty');
  });

  it('a PrivacyLens data file that is a directory', async () => {
    const root = dataDir('privacylens', { 'main_data.json': { dir: true } });
    const result = await cli([
      'run',
      'privacylens',
      '--model',
      'mock:echo',
      '--model',
      'judge=mock:echo',
      '--data-dir',
      root,
      '--dry-run',
    ]);
    expectUserError(result, 'main_data.json is a directory, not a file');
  });

  it('a data dir that cannot be created (/proc)', async () => {
    const result = await cli([
      'data',
      'pull',
      'confaide',
      '--from',
      join(work, 'no-copy'),
      '--data-dir',
      '/proc/confidant-x',
    ]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).not.toContain('internal error');
  });
});

describe('output paths', () => {
  it('run --out pointing at a file', async () => {
    const result = await cli(['run', 'toy-leak', '--model', 'mock:echo', '--out', join(work, 'a-file')]);
    expectUserError(result, 'it (or a folder above it) is a file; choose another --out');
  });

  it.runIf(process.platform === 'linux')('run --out /proc/x ends at once instead of hanging', async () => {
    const result = await cli(['run', 'toy-leak', '--model', 'mock:echo', '--out', '/proc/confidant-x']);
    expectUserError(
      result,
      'cannot create run directories in /proc/confidant-x: the file system there takes no new folders; choose another --out',
    );
  });

  it.runIf(process.platform === 'linux')('--cache-dir under /proc', async () => {
    const result = await cli(['run', 'toy-leak', '--model', 'mock:echo', '--cache-dir', '/proc/confidant-x']);
    expectUserError(result, 'cannot create the folder /proc/confidant-x');
  });

  it('merge --out pointing at a file', async () => {
    const result = await cli(['merge', runDir, '--out', join(work, 'a-file')]);
    expectUserError(result, 'is a file; choose another --out');
  });

  it('merge of one run directory twice, spelled two ways', async () => {
    const id = readdirSync(join(work, 'runs'))[0]!;
    const result = await cli(['merge', join('runs', id), `./runs/${id}/`, '--out', join(work, 'merged-twice')]);
    expectUserError(result, `${runDir} was given 2 times; pass each run directory once`);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(join(work, 'merged-twice'))).toBe(false);
  });

  it('merge of one run directory and a symlink to it', async () => {
    const link = join(work, 'run-link');
    symlinkSync(runDir, link);
    const result = await cli(['merge', runDir, link, '--out', join(work, 'merged-link')]);
    expectUserError(result, `${runDir} was given 2 times; pass each run directory once`);
  });

  it('report --out into a missing folder creates it', async () => {
    const target = join(work, 'missing', 'deeper', 'report.md');
    const result = await cli(['report', runDir, '--out', target]);
    expect(result.code, result.stderr).toBe(0);
    expect(readdirSync(join(work, 'missing', 'deeper'))).toEqual(['report.md']);
  });

  it('report --out below a file', async () => {
    const result = await cli(['report', runDir, '--out', join(work, 'a-file', 'report.md')]);
    expectUserError(result, 'a part of the folder path is a file');
  });
});

describe('plan-size guards (also under --dry-run)', () => {
  it('--epochs 1e9', async () => {
    for (const extra of [[], ['--dry-run']]) {
      const result = await cli(['run', 'toy-leak', '--model', 'mock:echo', '--epochs', '1e9', ...extra]);
      expectUserError(
        result,
        'this plan has 4,000,000,000 samples (4 scenarios, 4 with their variants, × 1,000,000,000 epochs), more than the 1,000,000 a run may hold',
      );
    }
  });

  it('--branching 1000,1000,1000', async () => {
    const result = await cli([
      'run',
      'privact-tree',
      '--model',
      'mock:echo',
      '--branching',
      '1000,1000,1000',
      '--dry-run',
    ]);
    expectUserError(result, 'branching 1000,1000,1000 over G>V>R makes 1,001,001,000 model calls per tree');
  });

  it('a chain of 5,000 roles', async () => {
    const chain = `${Array.from({ length: 4_999 }, () => 'V').join('>')}>R`;
    const result = await cli(['run', 'toy-leak', '--model', 'mock:echo', '--defense', `chain:${chain}`, '--dry-run']);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('it has 5000 roles, more than the 64 a chain may hold');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('run directories', () => {
  it('samples.jsonl that is a directory (compare, resume, view)', async () => {
    const broken = copyOfRun('samples-folder');
    rmSync(join(broken, 'samples.jsonl'));
    mkdirSync(join(broken, 'samples.jsonl'));
    const message = `${join(broken, 'samples.jsonl')} is not a file (a folder is in its place)`;
    for (const args of [
      ['compare', runDir, broken],
      ['resume', broken],
      ['merge', broken, '--out', join(work, 'm')],
    ]) {
      expectUserError(await cli(args), message);
    }
  });

  it('a half-written merge is refused by every command that reads it, saying how to redo it', async () => {
    const half = copyOfRun('half-merge');
    writeFileSync(join(half, MERGE_INCOMPLETE_MARKER), 'confidant merge in progress\n');
    const message = `${half} is a half-written merge (the merge was interrupted before it finished, and ${MERGE_INCOMPLETE_MARKER} is still in it); its records may be partial, so nothing reads it: delete it (rm -r ${half}) and run confidant merge on the shards again`;
    for (const args of [
      ['report', half],
      ['report', half, '--format', 'html'],
      ['compare', runDir, half],
      ['view', half, '--port', '0'],
      ['merge', half, '--out', join(work, 'merged')],
      ['resume', half],
      ['export', 'preferences', half, '--out', join(work, 'pairs')],
    ]) {
      expectUserError(await cli(args), message);
    }
  });
});
