import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { upstreamDataset } from '../../test/support/test-data.js';
import { datasetContentHash, hashDatasetFiles, sha256File, sha256Hex } from './checksum.js';

const confaide = upstreamDataset('confaide');

describe('checksums', () => {
  const dir = mkdtempSync(join(tmpdir(), 'confidant-checksum-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('hashes bytes and files with sha256', async () => {
    // The sha256 of "abc" is a published test vector.
    const abc = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';
    expect(sha256Hex('abc')).toBe(abc);
    writeFileSync(join(dir, 'abc.txt'), 'abc');
    expect(await sha256File(join(dir, 'abc.txt'))).toBe(abc);
  });

  it('reproduces the catalogued hash of an upstream file', confaide.testOptions, async () => {
    expect(await sha256File(join(confaide.dir, 'tier_1.txt'))).toBe(
      '63261cf847efb3f35f359913bea828131298ee04980189ed7d75eae05f76ac58',
    );
  });

  it('combines file hashes independently of listing order', async () => {
    writeFileSync(join(dir, 'b.txt'), 'b');
    const { files, hash } = await hashDatasetFiles({ root: dir, paths: ['b.txt', 'abc.txt'] });
    expect(files.map((file) => file.path)).toEqual(['b.txt', 'abc.txt']);
    expect(hash).toBe(datasetContentHash([...files].reverse()));
    expect(hash).toBe(sha256Hex(`${sha256Hex('abc')}  abc.txt\n${sha256Hex('b')}  b.txt\n`));
  });
});
