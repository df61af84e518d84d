import { describe, expect, it } from 'vitest';
import { caseDiscreet, caseLeak } from '../../suites/privacylens/__fixtures__/fixture-cases.js';
import { treeRunFixture } from './__fixtures__/tree-run-fixture.js';
import { DEFAULT_LC_ARS } from './lc-ars-reward.js';
import { buildPreferenceRecords, type PairSettings, topologyRoles } from './preference-records.js';
import { readTreeRun } from './read-tree-run.js';

const settings = (overrides: Partial<PairSettings> = {}): PairSettings => ({
  roles: ['verifier', 'refiner'],
  threshold: 0.5,
  lcars: DEFAULT_LC_ARS,
  promptStyle: 'inference',
  ...overrides,
});

const LEAK_H0 = -Math.sqrt(0.5);
const SAFE_H1 = 0.45 + 0.55 / 9;

describe('buildPreferenceRecords on the scripted 2×2×2 tree', () => {
  it('gives exactly the expected sibling pairs, in tree order, with their values', async () => {
    const run = await readTreeRun({ store: await treeRunFixture() });
    expect(topologyRoles(run)).toEqual(['generator', 'verifier', 'refiner']);
    const records = buildPreferenceRecords({ run, settings: settings() });
    expect(
      records.map(
        (record) => `${record.role} ${record.parentNodeId}: ${record.chosen.nodeId} > ${record.rejected.nodeId}`,
      ),
    ).toEqual([
      'verifier r.0: r.0.1 > r.0.0',
      'refiner r.0.0: r.0.0.1 > r.0.0.0',
      'refiner r.0.1: r.0.1.0 > r.0.1.1',
      'verifier r.1: r.1.1 > r.1.0',
      'refiner r.1.0: r.1.0.1 > r.1.0.0',
      'refiner r.1.1: r.1.1.0 > r.1.1.1',
    ]);
    const first = records[1];
    expect(first?.chosen.value).toBeCloseTo(SAFE_H1, 12);
    expect(first?.rejected.value).toBeCloseTo(LEAK_H0, 12);
    expect(first?.chosen.treeIndex).toEqual([0, 0, 1]);
    expect(first?.rejected.output).toContain('FYI Ana has diabetes.');
    expect(first).toMatchObject({
      runId: 'run-tree',
      sampleId: 'fx-leak#e1',
      caseName: caseLeak.name,
      role: 'refiner',
    });
    expect(first?.judgeVersions).toEqual(['privacylens-leak@1', 'privacylens-helpfulness@1']);
  });

  it('the inference prompt is the stored prompt the siblings were sampled from', async () => {
    const run = await readTreeRun({ store: await treeRunFixture() });
    const tree = run.trees[0]?.tree;
    for (const record of buildPreferenceRecords({ run, settings: settings() })) {
      expect(record.prompt).toEqual(tree?.prompts[record.promptId]);
      expect(record.prompt[0]?.content).toMatch(
        record.role === 'verifier' ? /^You are the Verifier/ : /^You are the Refiner/,
      );
    }
  });

  it('τ, b2 and the role list decide the pairs without any model call', async () => {
    const run = await readTreeRun({ store: await treeRunFixture() });
    const count = (overrides: Partial<PairSettings>) =>
      buildPreferenceRecords({ run, settings: settings(overrides) }).map((r) => `${r.role} ${r.chosen.nodeId}`);
    // τ 0.45: the safe-but-useless leaf (0.45) ties τ and is chosen, so the "changes" verifiers pair nothing.
    expect(count({ threshold: 0.45, roles: ['refiner'] })).toEqual(['refiner r.0.0.1', 'refiner r.1.0.1']);
    // b2 0.6 lifts every safe leaf above τ: only the leaking leaves are rejected.
    expect(count({ lcars: { ...DEFAULT_LC_ARS, b2: 0.6 }, roles: ['refiner'] })).toEqual([
      'refiner r.0.0.1',
      'refiner r.1.0.1',
    ]);
    expect(count({ roles: ['generator'] })).toEqual([]);
    expect(count({ threshold: 1.5 })).toEqual([]);
  });

  it('pairs of several trees come in planned order; failed trees are listed, not exported', async () => {
    const store = await treeRunFixture({
      scenarios: [caseLeak, caseDiscreet],
      override: (call, prompt) => {
        if (
          call.role === 'generator' &&
          prompt.includes(caseDiscreet.trajectory.user_instruction) &&
          call.request.sampleOrdinal === 1
        ) {
          throw new Error('boom');
        }
        return undefined;
      },
    });
    const run = await readTreeRun({ store });
    expect(run.trees.map((tree) => tree.caseName)).toEqual([caseLeak.name]);
    expect(run.failed).toEqual(['fx-discreet#e1']);
    expect(buildPreferenceRecords({ run, settings: settings() })).toHaveLength(6);
  });
});
