import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { upstreamDataset } from '../../test/support/test-data.js';
import { DatasetNotFoundError } from '../spec/errors.js';
import { sha256File } from './checksum.js';
import { datasetCatalog, findCatalogEntry } from './dataset-catalog.js';

describe('dataset catalogue', () => {
  for (const entry of datasetCatalog) {
    const upstream = upstreamDataset(entry.name as 'confaide' | 'privacylens');
    it(`matches every upstream ${entry.name} file byte for byte`, upstream.testOptions, async () => {
      for (const file of entry.files) {
        expect({
          file: `${entry.name}/${file.path}`,
          sha256: await sha256File(resolve(upstream.dir, file.path)),
        }).toEqual({
          file: `${entry.name}/${file.path}`,
          sha256: file.sha256,
        });
      }
    });
  }

  it('lists exactly the upstream files, with raw GitHub URLs', () => {
    expect(findCatalogEntry('confaide').files.map((file) => file.path)).toEqual([
      'tier_1.txt',
      'tier_1_labels.txt',
      'tier_2a.txt',
      'tier_2b.txt',
      'tier_2_labels.txt',
      'tier_3.txt',
      'tier_3_control.txt',
      'tier_4.txt',
      'LICENSE',
    ]);
    const privacylens = findCatalogEntry('privacylens');
    expect(privacylens.files.map((file) => file.path)).not.toContain('privact_split.json');
    expect(privacylens.files[0]?.url).toBe(
      'https://raw.githubusercontent.com/SALT-NLP/PrivacyLens/main/data/main_data.json',
    );
    expect(findCatalogEntry('confaide').files[0]?.url).toBe(
      'https://raw.githubusercontent.com/skywalker023/confaide/main/benchmark/tier_1.txt',
    );
  });

  it('rejects an unknown dataset with the known names', () => {
    expect(() => findCatalogEntry('nope')).toThrow(DatasetNotFoundError);
    expect(() => findCatalogEntry('nope')).toThrow(/confaide, privacylens/);
  });
});
