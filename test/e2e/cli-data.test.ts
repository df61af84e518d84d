import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findCatalogEntry } from '../../src/datasets/index.js';
import { writePrivacyLensFixture } from '../support/fixture-data.js';
import { type CliResult, lastLine, runCli } from '../support/run-cli-process.js';
import { fixtureDataDir, upstreamDataset } from '../support/test-data.js';

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'confidant-e2e-data-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

let counter = 0;
const fresh = (label: string) => {
  counter += 1;
  const dir = join(work, `${label}-${counter}`);
  mkdirSync(dir, { recursive: true });
  return dir;
};

const cli = (args: string[]): Promise<CliResult> =>
  runCli({ args, env: { HOME: work, CONFIDANT_CACHE_DIR: join(work, 'cache') }, cwd: work });

/** Exit 2, one line on stderr, no stack trace: a user error. */
function expectUserError(result: CliResult, ...patterns: RegExp[]): void {
  expect(result.code, result.stderr).toBe(2);
  expect(result.stderr).not.toMatch(/\n\s+at |internal error/);
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
  for (const pattern of patterns) expect(result.stderr).toMatch(pattern);
}

/** A data dir holding a copy of our ConfAIde-format fixture files. */
function confaideCopy(): string {
  const dataDir = fresh('data');
  cpSync(join(fixtureDataDir, 'confaide'), join(dataDir, 'confaide'), { recursive: true });
  return dataDir;
}

describe('partial copies are user errors naming the bad files (real CLI)', () => {
  const confaide = (dataDir: string) =>
    cli(['run', 'confaide', '--tier', '3', '--model', 'mock:echo', '--data-dir', dataDir, '--out', join(work, 'runs')]);

  it('confaide: a missing tier_3_control.txt', async () => {
    const dataDir = confaideCopy();
    rmSync(join(dataDir, 'confaide', 'tier_3_control.txt'));
    expectUserError(
      await confaide(dataDir),
      /dataset 'confaide' in .* is incomplete: tier_3_control\.txt is missing\./,
      /confidant data pull confaide --from <dir\|file\.tar\.gz>/,
      /confidant data verify confaide/,
    );
  });

  it('confaide: a folder and a dangling symlink in place of the tier files, both named', async () => {
    const dataDir = confaideCopy();
    rmSync(join(dataDir, 'confaide', 'tier_3_control.txt'));
    mkdirSync(join(dataDir, 'confaide', 'tier_3_control.txt'));
    rmSync(join(dataDir, 'confaide', 'tier_3.txt'));
    symlinkSync(join(dataDir, 'elsewhere.txt'), join(dataDir, 'confaide', 'tier_3.txt'));
    expectUserError(
      await confaide(dataDir),
      /tier_3\.txt is a symlink to nothing; tier_3_control\.txt is a directory, not a file\./,
    );
  });

  it('confaide: an empty tier file, and one holding only blank lines', async () => {
    const dataDir = confaideCopy();
    writeFileSync(join(dataDir, 'confaide', 'tier_3.txt'), '');
    expectUserError(await confaide(dataDir), /tier_3\.txt is empty/);
    writeFileSync(join(dataDir, 'confaide', 'tier_4.txt'), '\n\n');
    expectUserError(
      await cli(['run', 'confaide', '--tier', '4', '--model', 'mock:echo', '--data-dir', dataDir]),
      /tier_4\.txt holds no tier-4 items/,
    );
  });

  it('privacylens and privact-tree: main_data.json missing, a folder, empty, or an empty list', async () => {
    const privacylens = (dataDir: string) =>
      cli([
        'run',
        'privacylens',
        '--split',
        'all',
        '--model',
        'mock:echo',
        '--model',
        'judge=mock:echo',
        '--data-dir',
        dataDir,
      ]);
    const tree = (dataDir: string) =>
      cli([
        'run',
        'privact-tree',
        '--split',
        'all',
        '--model',
        'mock:echo',
        '--model',
        'judge=mock:echo',
        '--data-dir',
        dataDir,
      ]);
    const dataDir = writePrivacyLensFixture(fresh('data'));
    const file = join(dataDir, 'privacylens', 'main_data.json');
    rmSync(file);
    expectUserError(
      await privacylens(dataDir),
      /dataset 'privacylens' in .* is incomplete: main_data\.json is missing/,
    );
    mkdirSync(file);
    expectUserError(await tree(dataDir), /main_data\.json is a directory, not a file/);
    rmSync(file, { recursive: true });
    writeFileSync(file, '');
    expectUserError(await privacylens(dataDir), /main_data\.json is empty/);
    writeFileSync(file, '[]');
    expectUserError(await tree(dataDir), /main_data\.json: holds no cases/);
  });

  it('pac: a folder, a dangling domain link and an empty file among the scenarios, or none at all', async () => {
    const pac = (dataDir: string, split: string) =>
      cli([
        'run',
        'pac',
        '--split',
        split,
        '--model',
        'mock:echo',
        '--model',
        'judge=mock:echo',
        '--data-dir',
        dataDir,
      ]);
    const dataDir = fresh('data');
    const scenarios = join(dataDir, 'pacbench', 'scenarios');
    mkdirSync(join(scenarios, 'change', 'Banks', 'policy_0.json'), { recursive: true });
    mkdirSync(join(scenarios, 'range', 'Banks'), { recursive: true });
    writeFileSync(join(scenarios, 'range', 'Banks', 'policy_0.json'), '');
    symlinkSync(join(dataDir, 'gone'), join(scenarios, 'range', 'Airlines'));
    expectUserError(
      await pac(dataDir, 'all'),
      /PAC-Bench scenarios under .* are incomplete: change\/Banks\/policy_0\.json is a directory, not a file; range\/Airlines is a symlink to nothing; range\/Banks\/policy_0\.json is empty\./,
      /confidant data pull pacbench --from <your copy>/,
    );
    rmSync(join(scenarios, 'change', 'Banks'), { recursive: true });
    expectUserError(
      await pac(dataDir, 'change'),
      /no PAC-Bench scenario under .*: the loader reads change\/<Domain>\/policy_<k>\.json/,
    );
  });
});

describe('confidant data without upstream data (real CLI)', () => {
  it('lists pacbench as install-from-copy only, and refuses to download it', async () => {
    const list = await cli(['data', 'list']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^pacbench .*\[not downloadable: install a local copy with --from\]$/m);
    expectUserError(
      await cli(['data', 'pull', 'pacbench', '--data-dir', fresh('data')]),
      /dataset 'pacbench' cannot be downloaded: .*confidant data pull pacbench --from/,
    );
  });

  it('refuses a copy whose files are not the upstream ones, naming every file, and installs nothing', async () => {
    const dataDir = fresh('data');
    const result = await cli([
      'data',
      'pull',
      'confaide',
      '--from',
      join(fixtureDataDir, 'confaide'),
      '--data-dir',
      dataDir,
    ]);
    expectUserError(
      result,
      /refused to install 'confaide' from .*: 9 of 9 files do not match their checksums or are missing: /,
      /tier_1\.txt differs from the catalogue/,
      /tier_3_control\.txt differs from the catalogue/,
      /LICENSE is missing \(looked for /,
      /Nothing was installed into /,
    );
    expect(readdirSync(dataDir)).toEqual([]);
    expectUserError(
      await cli([
        'data',
        'pull',
        'confaide',
        '--from',
        fixtureDataDir,
        '--mirror',
        'http://127.0.0.1:1',
        '--data-dir',
        dataDir,
      ]),
      /--from and --mirror exclude each other/,
    );
  });

  it('verify lists every file with what is wrong with it, and exits 2', async () => {
    const dataDir = confaideCopy();
    const result = await cli(['data', 'verify', 'confaide', '--data-dir', dataDir]);
    expect(result.code).toBe(2);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(9);
    expect(lines.filter((line) => line.startsWith('mismatch ')).length).toBe(8);
    expect(lines).toContain('missing  LICENSE: is missing');
    expect(result.stderr).toMatch(
      /9 of 9 files missing or altered \(tier_1\.txt, tier_1_labels\.txt, .*LICENSE\): run `confidant data pull confaide`/,
    );
  });
});

const upstreamConfaide = upstreamDataset('confaide');
const upstreamPac = upstreamDataset('pacbench');

/** A copy of the upstream ConfAIde files in the upstream repository's layout, as a GitHub archive unpacks. */
function upstreamLayoutCopy(): string {
  const top = fresh('clone');
  const root = join(top, 'confaide-main');
  for (const file of findCatalogEntry('confaide').files) {
    mkdirSync(join(root, file.upstreamPath, '..'), { recursive: true });
    cpSync(join(upstreamConfaide.dir, file.path), join(root, file.upstreamPath));
  }
  return top;
}

describe('confidant data pull --from with the upstream files (real CLI)', upstreamConfaide.testOptions, () => {
  it('installs from a folder and from a .tar.gz, then verifies', async () => {
    const fromDir = fresh('data');
    const pulled = await cli(['data', 'pull', 'confaide', '--from', upstreamConfaide.dir, '--data-dir', fromDir]);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(lastLine(pulled.stdout)).toBe(join(fromDir, 'confaide'));
    expect(pulled.stderr).toMatch(/confaide: 9 copied from .*, 0 already present, all verified/);
    const verified = await cli(['data', 'verify', 'confaide', '--data-dir', fromDir]);
    expect(verified.code, verified.stderr).toBe(0);
    expect(
      verified.stdout
        .trim()
        .split('\n')
        .every((line) => line.startsWith('ok ')),
    ).toBe(true);

    const clone = upstreamLayoutCopy();
    const archive = join(clone, 'confaide-main.tar.gz');
    await create({ file: archive, cwd: clone, gzip: true }, ['confaide-main']);
    const fromArchive = fresh('data');
    const unpacked = await cli(['data', 'pull', 'confaide', '--from', `file://${archive}`, '--data-dir', fromArchive]);
    expect(unpacked.code, unpacked.stderr).toBe(0);
    expect((await cli(['data', 'verify', 'confaide', '--data-dir', fromArchive])).code).toBe(0);
    expect(readdirSync(fromArchive)).toEqual(['confaide']);
  });

  it('refuses a folder and an archive with one tampered file, naming it', async () => {
    const clone = upstreamLayoutCopy();
    writeFileSync(join(clone, 'confaide-main', 'benchmark', 'tier_2a.txt'), 'tampered\n', { flag: 'a' });
    const dataDir = fresh('data');
    const fromDir = await cli(['data', 'pull', 'confaide', '--from', clone, '--data-dir', dataDir]);
    expectUserError(
      fromDir,
      /1 of 9 files do not match their checksums or are missing: tier_2a\.txt differs from the catalogue \(sha256 [0-9a-f]{64}, expected a869099f/,
    );
    const archive = join(clone, 'tampered.tgz');
    await create({ file: archive, cwd: clone, gzip: true }, ['confaide-main']);
    const fromArchive = await cli(['data', 'pull', 'confaide', '--from', archive, '--data-dir', dataDir]);
    expectUserError(
      fromArchive,
      /tier_2a\.txt differs from the catalogue .*archive member confaide-main\/benchmark\/tier_2a\.txt/,
    );
    expect(existsSync(join(dataDir, 'confaide'))).toBe(false);
  });

  it('verify names every missing and altered file of a damaged install', async () => {
    const dataDir = fresh('data');
    cpSync(upstreamConfaide.dir, join(dataDir, 'confaide'), { recursive: true });
    rmSync(join(dataDir, 'confaide', 'tier_3_control.txt'));
    writeFileSync(join(dataDir, 'confaide', 'tier_1.txt'), 'x', { flag: 'a' });
    const result = await cli(['data', 'verify', 'confaide', '--data-dir', dataDir]);
    expect(result.code).toBe(2);
    expect(result.stdout).toMatch(/^mismatch tier_1\.txt: differs from the catalogue/m);
    expect(result.stdout).toMatch(/^missing {2}tier_3_control\.txt: is missing$/m);
    expect(result.stdout.match(/^ok /gm)).toHaveLength(7);
    expect(result.stderr).toMatch(/2 of 9 files missing or altered \(tier_1\.txt, tier_3_control\.txt\)/);
  });
});

describe('confidant data pull pacbench --from a local copy (real CLI)', upstreamPac.testOptions, () => {
  it('installs the 100 paper scenarios from a copy in the dataset layout and verifies them', async () => {
    const dataDir = fresh('data');
    const pulled = await cli(['data', 'pull', 'pacbench', '--from', upstreamPac.dir, '--data-dir', dataDir]);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(pulled.stderr).toMatch(/pacbench: 100 copied/);
    const verified = await cli(['data', 'verify', 'pacbench', '--data-dir', dataDir]);
    expect(verified.code, verified.stderr).toBe(0);
    expect(verified.stdout.trim().split('\n')).toHaveLength(100);
  });
});
