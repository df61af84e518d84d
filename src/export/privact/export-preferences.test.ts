import { describe, expect, it } from 'vitest';
import { testRunHeader } from '../../runner/testing/test-run-header.js';
import { type ConfidantError, PlanValidationError } from '../../spec/errors.js';
import { InMemoryRunStore } from '../../store/in-memory-run-store.js';
import { caseDiscreet, caseLeak } from '../../suites/privacylens/__fixtures__/fixture-cases.js';
import { treeRunFixture } from './__fixtures__/tree-run-fixture.js';
import { exportPreferences, formatExportSummary, preferencePaths } from './export-preferences.js';
import type { PreferenceRecord } from './preference-records.js';

const base = { roles: ['verifier', 'refiner'], format: 'trl', promptStyle: 'inference' } as const;

async function userError(promise: Promise<unknown>): Promise<string> {
  const error = (await promise.then(
    () => null,
    (reason: unknown) => reason,
  )) as ConfidantError | null;
  expect(error?.userError).toBe(true);
  return error?.message ?? '';
}

describe('exportPreferences', () => {
  it('renders each role with its sidecar, a manifest and a summary per role and per case', async () => {
    const store = await treeRunFixture({ scenarios: [caseLeak, caseDiscreet] });
    const result = await exportPreferences({ ...base, stores: [store] });
    expect(result.roles.map((entry) => [entry.role, entry.train.records.length, entry.validation])).toEqual([
      ['verifier', 4, null],
      ['refiner', 8, null],
    ]);
    const refiner = result.roles[1];
    expect(refiner?.train.pairs.trim().split('\n')).toHaveLength(8);
    expect(refiner?.train.meta.trim().split('\n')).toHaveLength(8);
    expect(result.summary.perRole).toEqual({ verifier: 4, refiner: 8 });
    expect(result.summary.perCase).toEqual([
      { caseName: 'fx-leak', counts: { verifier: 2, refiner: 4 } },
      { caseName: 'fx-discreet', counts: { verifier: 2, refiner: 4 } },
    ]);
    const text = formatExportSummary(result.summary);
    expect(text).toContain('run-tree: 2 tree(s); τ 0.5; LC-ARS code form, α 0.5, β 2, b1 0, b2 0.45, no action b2');
    expect(text).toContain('pairs per role: verifier 4, refiner 8');
    expect(text).toMatch(/\n {2}fx-discreet\s+2\s+4\n/);
    expect(JSON.parse(result.manifest)).toMatchObject({
      kind: 'privact-preferences',
      format: 'trl',
      promptMode: 'inference',
      roles: ['verifier', 'refiner'],
      pairs: { verifier: { train: 4, validation: 0 }, refiner: { train: 8, validation: 0 } },
    });
  });

  it('overrides default to the run: --b2 and --threshold change the pairs; several runs concatenate', async () => {
    const one = await treeRunFixture({ label: 'a' });
    const two = await treeRunFixture({ label: 'b', scenarios: [caseDiscreet] });
    const both = await exportPreferences({ ...base, roles: ['refiner'], stores: [one, two] });
    expect(both.roles[0]?.train.records.map((record) => record.runId)).toEqual([
      'run-a',
      'run-a',
      'run-a',
      'run-a',
      'run-b',
      'run-b',
      'run-b',
      'run-b',
    ]);
    const lifted = await exportPreferences({ ...base, roles: ['refiner'], stores: [one], lcars: { b2: 0.6 } });
    expect(lifted.roles[0]?.train.records).toHaveLength(2);
    expect(lifted.summary.runs[0]?.lcars.b2).toBe(0.6);
    const strict = await exportPreferences({ ...base, roles: ['refiner'], stores: [one], threshold: 0.9 });
    // τ 0.9: only the excellent safe leaf (1.0) is chosen, against its sibling at 0.45.
    expect(strict.roles[0]?.train.records.map((record) => record.chosen.nodeId)).toEqual(['r.0.1.0', 'r.1.1.0']);
  });

  it('without --role, pairs the roles after the first stage: V and R for G>V>R, C and X for E>C>X', async () => {
    const gvr = await exportPreferences({ format: 'trl', promptStyle: 'inference', stores: [await treeRunFixture()] });
    expect(gvr.roles.map((entry) => entry.role)).toEqual(['verifier', 'refiner']);
    const ecx = await treeRunFixture({
      label: 'ecx',
      suiteOptions: { topology: 'E>C>X', branching: '1,2,2' },
      roles: ['extractor', 'checker', 'executor', 'judge'],
    });
    // The scripted executor never acts, so every leaf earns b2 = 0.45 < τ: no pairs at all, a user error saying why.
    const result = exportPreferences({ format: 'trl', promptStyle: 'inference', stores: [ecx] });
    await expect(result).rejects.toBeInstanceOf(PlanValidationError);
    await expect(result).rejects.toThrow(
      /^no preference pair to export for checker, executor: no sibling pair has one value ≥ τ \(0\.5\) and one below: \d+ of \d+ leaves have rewards/,
    );
  });

  it("says that every leaf's helpfulness judge failed when no leaf has a reward", async () => {
    const store = await treeRunFixture({
      label: 'garbage',
      override: (call, prompt) =>
        call.role === 'judge' && !prompt.startsWith('Decide whether') ? 'I refuse to rate this.' : undefined,
    });
    const result = exportPreferences({ ...base, stores: [store] });
    await expect(result).rejects.toThrow(
      /^no preference pair to export for verifier, refiner: every leaf's helpfulness judge failed \(8 of 8 leaves\): JudgeParseError: the reply did not parse after 3 attempt\(s\): no valid 'Answer:' line/,
    );
  });

  it('holds out a seeded, reproducible validation share', async () => {
    const store = await treeRunFixture({ scenarios: [caseLeak, caseDiscreet] });
    const split = await exportPreferences({ ...base, stores: [store], validationFraction: 0.25, seed: 42 });
    const refiner = split.roles[1];
    expect(refiner?.validation?.records).toHaveLength(2);
    expect(refiner?.train.records).toHaveLength(6);
    const again = await exportPreferences({ ...base, stores: [store], validationFraction: 0.25, seed: 42 });
    expect(again.roles[1]?.validation?.pairs).toBe(refiner?.validation?.pairs);
    const ids = (records: readonly PreferenceRecord[]) =>
      records.map((record) => `${record.sampleId} ${record.chosen.nodeId}`);
    const all = new Set([...ids(refiner?.train.records ?? []), ...ids(refiner?.validation?.records ?? [])]);
    expect(all.size).toBe(8);
  });

  it('user errors: not a tree run, unknown or absent roles, a bad threshold or fraction', async () => {
    const store = await treeRunFixture();
    const other = new InMemoryRunStore('other');
    await other.writeHeader(testRunHeader({ plan: { suite: 'privacylens' } }));
    expect(await userError(exportPreferences({ ...base, stores: [other] }))).toMatch(
      /is a 'privacylens' run, not a privact-tree run/,
    );
    expect(await userError(exportPreferences({ ...base, stores: [store], roles: ['critic'] }))).toMatch(
      /unknown role 'critic'/,
    );
    expect(await userError(exportPreferences({ ...base, stores: [store], roles: ['checker'] }))).toMatch(
      /role 'checker' is not in the chain G>V>R .*use generator, verifier, refiner/,
    );
    expect(await userError(exportPreferences({ ...base, stores: [store], threshold: Number.NaN }))).toMatch(
      /--threshold must be a number/,
    );
    expect(await userError(exportPreferences({ ...base, stores: [store], validationFraction: 1 }))).toMatch(
      /--split-validation must be a fraction/,
    );
  });
});

describe('preferencePaths', () => {
  it('a directory gets <role>.<format>.jsonl and <role>.meta.jsonl; a file takes one role', () => {
    const dir = preferencePaths({ out: '/x/out', roles: ['verifier', 'refiner'], format: 'openai' });
    expect(dir.byRole.get('refiner')).toEqual({
      pairs: '/x/out/refiner.openai.jsonl',
      meta: '/x/out/refiner.meta.jsonl',
      validationPairs: '/x/out/refiner.validation.openai.jsonl',
      validationMeta: '/x/out/refiner.validation.meta.jsonl',
    });
    expect(dir.manifest).toBe('/x/out/export.json');
    expect(
      preferencePaths({ out: '/x/out', roles: ['verifier'], format: 'privact' }).byRole.get('verifier')?.pairs,
    ).toBe('/x/out/verifier.privact.json');
    const file = preferencePaths({ out: '/x/v.jsonl', roles: ['verifier'], format: 'trl' });
    expect(file.byRole.get('verifier')).toEqual({
      pairs: '/x/v.jsonl',
      meta: '/x/v.meta.jsonl',
      validationPairs: '/x/v.validation.jsonl',
      validationMeta: '/x/v.validation.meta.jsonl',
    });
    expect(file.manifest).toBe('/x/v.export.json');
    expect(() => preferencePaths({ out: '/x/v.jsonl', roles: ['verifier', 'refiner'], format: 'trl' })).toThrow(
      /is one file, but 2 roles are exported/,
    );
  });
});
