import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { create } from 'tar';
import { afterAll, describe, expect, it } from 'vitest';
import { ChecksumMismatchError, ConfidantError, DatasetFormatError, DatasetNotFoundError } from '../spec/errors.js';
import { FIXTURE_FILES, fixtureCatalogEntry, writeFixtureCopy } from './__fixtures__/fixture-catalog.js';
import { type InstallProgress, installDatasetFromCopy } from './install-from-copy.js';
import { verifyDataset } from './pull-dataset.js';

const entry = fixtureCatalogEntry();
const roots: string[] = [];
const fresh = (label: string) => {
  const dir = mkdtempSync(join(tmpdir(), `confidant-from-${label}-`));
  roots.push(dir);
  return dir;
};
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

async function caught(run: () => Promise<unknown>): Promise<Error> {
  try {
    await run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error');
}

const install = (options: { dataDir: string; from: string }) =>
  installDatasetFromCopy({ name: 'fixture', entry, ...options });

/** Packs `dir`'s entries `names` into an archive at `file` (gzip unless it ends in .tar). */
async function pack({ dir, names, file }: { dir: string; names: string[]; file: string }): Promise<string> {
  await create({ file, cwd: dir, gzip: !file.endsWith('.tar'), portable: true }, names);
  return file;
}

describe('installDatasetFromCopy from a folder', () => {
  it.each([
    ['the dataset layout', 'dataset' as const, (root: string) => root],
    ['the upstream repository layout', 'upstream' as const, (root: string) => root],
    ['a data dir holding fixture/', 'data-dir' as const, (root: string) => root],
    ['a folder one level down (an unpacked GitHub archive)', 'upstream' as const, (root: string) => join(root, '..')],
  ])('installs and verifies every file from %s', async (_label, layout, fromOf) => {
    const copy = writeFixtureCopy({ root: join(fresh('copy'), 'fixture-main'), layout });
    const dataDir = fresh('data');
    const progress: InstallProgress[] = [];
    const result = await installDatasetFromCopy({
      name: 'fixture',
      entry,
      dataDir,
      from: fromOf(copy),
      onProgress: (event) => progress.push(event),
    });
    expect(result.dir).toBe(join(dataDir, 'fixture'));
    expect(result.files.map((file) => [file.path, file.status])).toEqual([
      ['notes.txt', 'copied'],
      ['sub/table.json', 'copied'],
      ['LICENSE', 'copied'],
    ]);
    expect(progress.map((event) => `${event.index + 1}/${event.total} ${event.status}`)).toEqual([
      '1/3 copied',
      '2/3 copied',
      '3/3 copied',
    ]);
    expect(readFileSync(join(dataDir, 'fixture', 'sub', 'table.json'), 'utf8')).toBe(
      FIXTURE_FILES['sub/table.json']!.text,
    );
    expect((await verifyDataset({ name: 'fixture', entry, dataDir })).ok).toBe(true);
    expect(readdirSync(dataDir)).toEqual(['fixture']);
  });

  it('keeps files already installed, so a copy lacking them is enough', async () => {
    const dataDir = fresh('data');
    await install({ dataDir, from: writeFixtureCopy({ root: fresh('copy') }) });
    writeFileSync(join(dataDir, 'fixture', 'LICENSE'), 'damaged');
    const partial = writeFixtureCopy({ root: fresh('copy'), omit: ['notes.txt', 'sub/table.json'] });
    const result = await install({ dataDir, from: partial });
    expect(result.files.map((file) => [file.path, file.status])).toEqual([
      ['notes.txt', 'present'],
      ['sub/table.json', 'present'],
      ['LICENSE', 'copied'],
    ]);
    expect((await verifyDataset({ name: 'fixture', entry, dataDir })).ok).toBe(true);
  });

  it('refuses a copy with a tampered file, naming it and both hashes, and installs nothing', async () => {
    const copy = writeFixtureCopy({ root: fresh('copy'), tamper: ['sub/table.json'] });
    const dataDir = fresh('data');
    const error = await caught(() => install({ dataDir, from: copy }));
    expect(error).toBeInstanceOf(ChecksumMismatchError);
    expect(ConfidantError.isInstance(error) && error.userError).toBe(true);
    const expected = entry.files.find((file) => file.path === 'sub/table.json')?.sha256 ?? '';
    expect(error.message).toMatch(
      new RegExp(
        `^refused to install 'fixture' from ${copy}: 1 of 3 files do not match their checksums or are missing: ` +
          `sub/table\\.json differs from the catalogue \\(sha256 [0-9a-f]{64}, expected ${expected}\\) ` +
          `\\(${copy}/sub/table\\.json\\)\\. Nothing was installed into ${dataDir}/fixture\\.$`,
      ),
    );
    expect(existsSync(join(dataDir, 'fixture'))).toBe(false);
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('lists every missing or unusable file at once', async () => {
    const copy = writeFixtureCopy({ root: fresh('copy'), omit: ['notes.txt', 'LICENSE'] });
    mkdirSync(join(copy, 'LICENSE'));
    const error = await caught(() => install({ dataDir: fresh('data'), from: copy }));
    expect(error).toBeInstanceOf(DatasetNotFoundError);
    expect(error.message).toContain('2 of 3 files are missing or unusable');
    expect(error.message).toContain(`notes.txt is missing (looked for ${copy}/notes.txt and ${copy}/data/notes.txt)`);
    expect(error.message).toContain(`LICENSE is a directory, not a file (${copy}/LICENSE)`);
  });

  it('never deletes a folder standing where a file goes in the data dir', async () => {
    const dataDir = fresh('data');
    mkdirSync(join(dataDir, 'fixture', 'notes.txt', 'mine'), { recursive: true });
    const error = await caught(() => install({ dataDir, from: writeFixtureCopy({ root: fresh('copy') }) }));
    expect(error.message).toContain(`fixture/notes.txt is a directory, not a file (${dataDir}/fixture/notes.txt)`);
    expect(existsSync(join(dataDir, 'fixture', 'notes.txt', 'mine'))).toBe(true);
  });

  it('refuses sources that are not a local copy, saying what --from takes', async () => {
    const dataDir = fresh('data');
    const empty = fresh('empty');
    expect((await caught(() => install({ dataDir, from: 'https://example.invalid/x' }))).message).toMatch(
      /--from takes a local folder or archive.*use --mirror/,
    );
    expect((await caught(() => install({ dataDir, from: join(empty, 'nope') }))).message).toMatch(
      /--from .*nope is missing: give the folder of a copy of 'fixture'/,
    );
    writeFileSync(join(empty, 'notes.zip'), 'PK');
    expect((await caught(() => install({ dataDir, from: join(empty, 'notes.zip') }))).message).toMatch(
      /is not a \.tar\.gz, \.tgz or \.tar archive/,
    );
    expect((await caught(() => install({ dataDir, from: empty }))).message).toMatch(
      /^no file of dataset 'fixture' found in .*: expected e\.g\. notes\.txt or data\/notes\.txt/,
    );
  });
});

describe('installDatasetFromCopy from an archive', () => {
  it('installs from .tar.gz, .tgz, .tar and file:// URLs of them', async () => {
    const work = fresh('archive');
    writeFixtureCopy({ root: join(work, 'fixture-main'), layout: 'upstream' });
    for (const name of ['copy.tar.gz', 'copy.tgz', 'copy.tar']) {
      const archive = await pack({ dir: work, names: ['fixture-main'], file: join(work, name) });
      for (const from of [archive, pathToFileURL(archive).href]) {
        const dataDir = fresh('data');
        const result = await install({ dataDir, from });
        expect(result.source).toBe(archive);
        expect(result.files.every((file) => file.status === 'copied')).toBe(true);
        expect((await verifyDataset({ name: 'fixture', entry, dataDir })).ok).toBe(true);
        // The unpacked archive is gone with the staging folder.
        expect(readdirSync(dataDir)).toEqual(['fixture']);
      }
    }
  });

  it('refuses an archive with a tampered file, naming the member, and installs nothing', async () => {
    const work = fresh('archive');
    writeFixtureCopy({ root: join(work, 'fixture-main'), layout: 'upstream', tamper: ['notes.txt'] });
    const archive = await pack({ dir: work, names: ['fixture-main'], file: join(work, 'bad.tar.gz') });
    const dataDir = fresh('data');
    const error = await caught(() => install({ dataDir, from: archive }));
    expect(error).toBeInstanceOf(ChecksumMismatchError);
    expect(error.message).toMatch(
      /notes\.txt differs from the catalogue \(sha256 [0-9a-f]{64}, expected [0-9a-f]{64}\) \(archive member fixture-main\/data\/notes\.txt\)/,
    );
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('unpacks only files and folders: a symlink member is skipped and reported as missing', async () => {
    const work = fresh('archive');
    const copy = writeFixtureCopy({ root: join(work, 'fixture-main'), omit: ['LICENSE'] });
    writeFileSync(join(work, 'outside-licence'), FIXTURE_FILES.LICENSE!.text);
    symlinkSync(join(work, 'outside-licence'), join(copy, 'LICENSE'));
    const archive = await pack({ dir: work, names: ['fixture-main'], file: join(work, 'links.tgz') });
    const error = await caught(() => install({ dataDir: fresh('data'), from: archive }));
    expect(error).toBeInstanceOf(DatasetNotFoundError);
    expect(error.message).toContain('LICENSE is missing (looked for archive member fixture-main/LICENSE');
  });

  it('a file that is not a tar archive is a format error naming it', async () => {
    const work = fresh('archive');
    writeFileSync(join(work, 'fake.tar.gz'), 'this is not an archive');
    const error = await caught(() => install({ dataDir: fresh('data'), from: join(work, 'fake.tar.gz') }));
    expect(error).toBeInstanceOf(DatasetFormatError);
    expect(error.message).toMatch(/fake\.tar\.gz could not be unpacked as a tar archive/);
  });
});
