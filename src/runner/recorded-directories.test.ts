import { describe, expect, it } from 'vitest';
import { PlanValidationError } from '../spec/errors.js';
import { recordedDirectories } from './recorded-directories.js';

const dataset = { name: 'pacbench', hash: 'sha256:abc', files: [] };

describe('recordedDirectories', () => {
  it("takes the caller's directories, else the recorded ones", () => {
    const header = { dataset, invocation: { cwd: '/w', dataDir: '/data', cacheDir: '/cache' } };
    expect(recordedDirectories({ header, location: 'r', dataDir: undefined, cacheDir: undefined })).toEqual({
      dataDir: '/data',
      cacheDir: '/cache',
    });
    expect(recordedDirectories({ header, location: 'r', dataDir: '/mine', cacheDir: '/c2' })).toEqual({
      dataDir: '/mine',
      cacheDir: '/c2',
    });
  });

  it('reads no data directory for built-in data, and caches nowhere when none is recorded', () => {
    const header = { dataset: { ...dataset, hash: 'built-in' } };
    expect(recordedDirectories({ header, location: 'r', dataDir: undefined, cacheDir: undefined })).toEqual({
      dataDir: '.',
      cacheDir: undefined,
    });
  });

  it('refuses a header with no data directory, naming the run and the dataset', () => {
    const given = { header: { dataset }, location: 'runs/x', dataDir: undefined, cacheDir: undefined };
    expect(() => recordedDirectories({ ...given, purpose: 'to resume it' })).toThrow(PlanValidationError);
    expect(() => recordedDirectories({ ...given, purpose: 'to resume it' })).toThrow(
      'runs/x records no data directory; give the data directory its dataset pacbench is in to resume it',
    );
    expect(() => recordedDirectories(given)).toThrow(/ is in$/);
  });
});
