import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { datasetContentHash, sha256Hex } from '../datasets/index.js';
import { DatasetNotFoundError } from '../spec/errors.js';
import { runPlanSchema } from '../spec/run-plan.js';
import { hashRunDataset, readsOutsideDataDir } from './hash-run-dataset.js';
import { prepareRun } from './prepare-run.js';

const STARTER_COMMUNITY = new URL('../suites/privacybench/starter/', import.meta.url).pathname;

describe('hashRunDataset', () => {
  it('records files under <dataDir>/<name>/ relative to it, and files elsewhere relative to their folder', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'confidant-hash-'));
    mkdirSync(join(dataDir, 'toy', 'sub'), { recursive: true });
    writeFileSync(join(dataDir, 'toy', 'sub', 'a.json'), 'A');
    const inside = await hashRunDataset({ dataDir, name: 'toy', files: [join(dataDir, 'toy', 'sub', 'a.json')] });
    expect(inside).toEqual({
      name: 'toy',
      files: [{ path: 'sub/a.json', sha256: sha256Hex('A') }],
      hash: datasetContentHash([{ path: 'sub/a.json', sha256: sha256Hex('A') }]),
    });
    const elsewhere = mkdtempSync(join(tmpdir(), 'confidant-custom-'));
    mkdirSync(join(elsewhere, 'x'));
    writeFileSync(join(elsewhere, 'x', 'one.json'), '1');
    writeFileSync(join(elsewhere, 'two.json'), '2');
    const files = [join(elsewhere, 'x', 'one.json'), join(elsewhere, 'two.json')];
    expect(readsOutsideDataDir({ dataDir, name: 'toy', files })).toBe(true);
    const outside = await hashRunDataset({ dataDir, name: 'toy', files });
    const hashes = [
      { path: 'x/one.json', sha256: sha256Hex('1') },
      { path: 'two.json', sha256: sha256Hex('2') },
    ];
    expect(outside).toEqual({ name: 'toy', root: elsewhere, files: hashes, hash: datasetContentHash(hashes) });
    expect(await hashRunDataset({ dataDir, name: 'toy', files: [] })).toEqual({
      name: 'toy',
      files: [],
      hash: 'built-in',
    });
    await expect(
      hashRunDataset({ dataDir, name: 'toy', files: [join(elsewhere, 'missing.json')] }),
    ).rejects.toBeInstanceOf(DatasetNotFoundError);
  });
});

describe('the run header of a PrivacyBench --community outside the data dir', () => {
  it('records the resolved folder and the content hash, the same wherever the folder lives', async () => {
    const prepared = async () => {
      const copy = mkdtempSync(join(tmpdir(), 'confidant-community-'));
      cpSync(STARTER_COMMUNITY, copy, { recursive: true });
      const plan = runPlanSchema.parse({
        suite: 'privacybench',
        limit: 1,
        suiteOptions: { community: copy },
        models: [
          { role: 'agent', spec: 'mock:echo' },
          { role: 'prober', spec: 'mock:echo' },
          { role: 'judge', spec: 'mock:fixed/no' },
        ],
      });
      const run = await prepareRun({ plan, dataDir: '/no/data/dir' });
      return { copy, dataset: run.dataset };
    };
    const first = await prepared();
    const second = await prepared();
    expect(first.dataset.root).toBe(first.copy);
    expect(first.dataset.files.map((file) => file.path)).toEqual(['community.json', 'documents.jsonl']);
    expect(first.dataset.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(second.dataset.hash).toBe(first.dataset.hash);
    expect(second.dataset.root).not.toBe(first.dataset.root);
  });
});
