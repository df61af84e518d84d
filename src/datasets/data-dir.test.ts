import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfidantError, DatasetNotFoundError } from '../spec/errors.js';
import { requireDatasetDir, requireDatasetFiles, resolveDataDir, restoreHint } from './data-dir.js';

describe('resolveDataDir', () => {
  it('prefers the flag, then CONFIDANT_DATA_DIR, then the home cache', () => {
    const env = { CONFIDANT_DATA_DIR: '/env/data' };
    expect(resolveDataDir({ flag: '/flag/data', env, home: '/home/u' })).toBe('/flag/data');
    expect(resolveDataDir({ env, home: '/home/u' })).toBe('/env/data');
    expect(resolveDataDir({ env: {}, home: '/home/u' })).toBe('/home/u/.cache/confidant/datasets');
    expect(resolveDataDir({ home: '/home/u' })).toBe('/home/u/.cache/confidant/datasets');
  });

  it('treats empty values as unset and resolves relative paths', () => {
    expect(resolveDataDir({ flag: '', env: { CONFIDANT_DATA_DIR: '' }, home: '/h' })).toBe(
      '/h/.cache/confidant/datasets',
    );
    expect(resolveDataDir({ flag: 'rel/data', home: '/h' })).toBe(resolve('rel/data'));
  });
});

describe('requireDatasetDir', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'confidant-data-dir-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('returns the dataset folder when it is a directory', () => {
    const present = join(dataDir, 'present');
    mkdirSync(join(present, 'confaide'), { recursive: true });
    expect(requireDatasetDir({ dataDir: present, name: 'confaide' })).toBe(join(present, 'confaide'));
    writeFileSync(join(present, 'privacylens'), 'a file, not a folder');
    expect(() => requireDatasetDir({ dataDir: present, name: 'privacylens' })).toThrow(DatasetNotFoundError);
  });

  it('throws a user error naming the pull command when the folder is missing', () => {
    let caught: unknown;
    try {
      requireDatasetDir({ dataDir, name: 'confaide' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(DatasetNotFoundError);
    expect(ConfidantError.isInstance(caught) && caught.userError).toBe(true);
    expect((caught as Error).message).toBe(
      `dataset 'confaide' not found in ${dataDir}: run \`confidant data pull confaide\` (offline: add \`--from <dir|file.tar.gz>\`), or set --data-dir / CONFIDANT_DATA_DIR`,
    );
  });
});

describe('requireDatasetFiles', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'confidant-data-files-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('returns the folder when every file is usable', () => {
    mkdirSync(join(dataDir, 'confaide'), { recursive: true });
    writeFileSync(join(dataDir, 'confaide', 'tier_4.txt'), 'x');
    expect(requireDatasetFiles({ dataDir, name: 'confaide', files: ['tier_4.txt'] })).toBe(join(dataDir, 'confaide'));
  });

  it('names every missing, empty, folder-shaped and dangling file in one user error', () => {
    const dir = join(dataDir, 'confaide');
    writeFileSync(join(dir, 'tier_3.txt'), '');
    mkdirSync(join(dir, 'tier_1.txt'));
    symlinkSync(join(dir, 'nowhere'), join(dir, 'tier_1_labels.txt'));
    let caught: unknown;
    try {
      requireDatasetFiles({
        dataDir,
        name: 'confaide',
        files: ['tier_4.txt', 'tier_3.txt', 'tier_3_control.txt', 'tier_1.txt', 'tier_1_labels.txt'],
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(DatasetNotFoundError);
    expect(ConfidantError.isInstance(caught) && caught.userError).toBe(true);
    expect((caught as Error).message).toBe(
      `dataset 'confaide' in ${dir} is incomplete: tier_3.txt is empty; tier_3_control.txt is missing; ` +
        'tier_1.txt is a directory, not a file; tier_1_labels.txt is a symlink to nothing. ' +
        'Restore it with `confidant data pull confaide` (offline: `confidant data pull confaide --from <dir|file.tar.gz>`), ' +
        'then check it with `confidant data verify confaide`',
    );
  });

  it('a dataset that cannot be downloaded is restored from a copy', () => {
    expect(restoreHint({ name: 'pacbench' })).toBe(
      'restore it with `confidant data pull pacbench --from <your copy>`, then check it with `confidant data verify pacbench`',
    );
  });
});
