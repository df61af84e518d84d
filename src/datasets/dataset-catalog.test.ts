import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { upstreamDataset } from '../../test/support/test-data.js';
import { DatasetNotFoundError } from '../spec/errors.js';
import { sha256File } from './checksum.js';
import { datasetCatalog, findCatalogEntry } from './dataset-catalog.js';

describe('dataset catalogue', () => {
  for (const entry of datasetCatalog) {
    const upstream = upstreamDataset(entry.name as 'confaide' | 'privacylens' | 'pacbench');
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

  it('lists the PAC-Bench paper scenarios by checksum only: 100 files, never downloaded', () => {
    const pacbench = findCatalogEntry('pacbench');
    expect(pacbench.downloadable).toBe(false);
    expect(pacbench.howToObtain).toMatch(/no licence.*confidant data pull pacbench --from/);
    expect(pacbench.files).toHaveLength(100);
    expect(pacbench.files.every((file) => file.url === undefined && /^[0-9a-f]{64}$/.test(file.sha256))).toBe(true);
    expect(pacbench.files.filter((file) => file.path.startsWith('scenarios/change/'))).toHaveLength(50);
    expect(pacbench.files[0]).toEqual({
      path: 'scenarios/change/Aerospace_and_Defense/policy_0.json',
      upstreamPath: 'scenario_simulator/scenarios/change/Aerospace_and_Defense/policy_0.json',
      sha256: 'e21d5c4c11ef15b628830f05899d06cfc526a4836ee6caf6efaeb1fa9952ef4f',
      bytes: 6520,
    });
    expect(datasetCatalog.filter((entry) => entry.downloadable).map((entry) => entry.name)).toEqual([
      'confaide',
      'privacylens',
    ]);
  });

  it('rejects an unknown dataset with the known names', () => {
    expect(() => findCatalogEntry('nope')).toThrow(DatasetNotFoundError);
    expect(() => findCatalogEntry('nope')).toThrow(/confaide, privacylens, pacbench/);
  });
});
