import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upstreamDataset } from '../../../test/support/test-data.js';
import { ConfidantError, DatasetFormatError, DatasetNotFoundError, PlanValidationError } from '../../spec/errors.js';
import { listPacScenarioFiles, loadPacScenarios, type PacLoadNotice } from './load-scenarios.js';
import type { PacScenario } from './scenario-schema.js';

const pacbench = upstreamDataset('pacbench');
const dataDir = pacbench.dataDir;

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const median = (values: number[]) => {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = sorted.length / 2;
  return sorted.length % 2 === 0 ? (sorted[middle - 1]! + sorted[middle]!) / 2 : sorted[Math.floor(middle)]!;
};
const covered = (scenario: PacScenario, seat: number) =>
  new Set(scenario.agents[seat]?.memories.flatMap((memory) => memory.requirementIndices));

describe('loadPacScenarios on the paper data (pacbench.md §1.3)', pacbench.testOptions, () => {
  let all: PacScenario[] = [];
  const notices: PacLoadNotice[] = [];
  beforeAll(async () => {
    all = await loadPacScenarios({ dataDir, split: 'all', onNotice: (notice) => notices.push(notice) });
  });
  const ofSplit = (split: string) => all.filter((scenario) => scenario.split === split);

  it('loads 50 + 50 scenarios over the same 50 domains, with stable unique ids', () => {
    expect(all).toHaveLength(100);
    expect(ofSplit('change')).toHaveLength(50);
    expect(ofSplit('range')).toHaveLength(50);
    expect(new Set(all.map((scenario) => scenario.id)).size).toBe(100);
    expect(ofSplit('change').map((scenario) => scenario.domain)).toEqual(
      ofSplit('range').map((scenario) => scenario.domain),
    );
    expect(all[0]?.id).toBe('change/Aerospace_and_Defense/policy_0');
    expect(all.find((scenario) => scenario.id === 'range/Banks/policy_0')?.policyType).toBe('range');
    expect(all.every((scenario) => scenario.agents.length === 2 && scenario.goal.requirements.length === 5)).toBe(true);
    expect(all.every((scenario) => scenario.agents.every((agent) => agent.policies.length === 1))).toBe(true);
  });

  it('matches the requirement-coverage statistics of Table 13', () => {
    const coverage = (scenarios: PacScenario[]) =>
      scenarios.map((scenario) => new Set([...covered(scenario, 0), ...covered(scenario, 1)]).size);
    const change = coverage(ofSplit('change'));
    const range = coverage(ofSplit('range'));
    expect([Math.min(...change), Math.max(...change), mean(change), median(change)]).toEqual([1, 5, 4.22, 4]);
    expect([Math.min(...range), Math.max(...range), mean(range), median(range)]).toEqual([2, 5, 4.36, 4.5]);
    const combined = coverage(all);
    expect(mean(combined)).toBeCloseTo(4.29, 10);
    expect([1, 2, 3, 4, 5].map((count) => combined.filter((value) => value === count).length)).toEqual([
      1, 3, 10, 38, 48,
    ]);
    const slots = { onlyA: 0, onlyB: 0, both: 0, none: 0 };
    for (const scenario of all) {
      const a = covered(scenario, 0);
      const b = covered(scenario, 1);
      scenario.goal.requirements.forEach((_, index) => {
        if (a.has(index) && b.has(index)) slots.both += 1;
        else if (a.has(index)) slots.onlyA += 1;
        else if (b.has(index)) slots.onlyB += 1;
        else slots.none += 1;
      });
    }
    expect(slots).toEqual({ onlyA: 179, onlyB: 177, both: 73, none: 71 });
  });

  it('matches the memory and keyword statistics', () => {
    const memories = (split: string, seat: number) =>
      mean(ofSplit(split).map((scenario) => scenario.agents[seat]?.memories.length ?? 0));
    expect(memories('change', 0)).toBeCloseTo(2.26, 10);
    expect(memories('change', 1)).toBeCloseTo(2.1, 10);
    expect(memories('range', 0)).toBeCloseTo(2.3, 10);
    expect(memories('range', 1)).toBeCloseTo(2.16, 10);
    const lengths = all.flatMap((scenario) =>
      scenario.agents.flatMap((agent) => agent.memories.map((memory) => memory.content.length)),
    );
    expect(Math.round(mean(lengths))).toBe(842);
    expect(Math.max(...lengths)).toBe(5172);
    const keywords = (split: string) =>
      ofSplit(split).flatMap((scenario) =>
        scenario.agents.flatMap((agent) => agent.policies.map((policy) => policy.violationKeywords.length)),
      );
    expect([mean(keywords('change')), Math.min(...keywords('change')), Math.max(...keywords('change'))]).toEqual([
      6.6, 1, 21,
    ]);
    expect(mean(keywords('range'))).toBeCloseTo(3.38, 10);
    expect([Math.min(...keywords('range')), Math.max(...keywords('range'))]).toEqual([1, 15]);
    expect([...keywords('change'), ...keywords('range')].reduce((sum, value) => sum + value, 0)).toBe(998);
  });

  it('tolerates the 3 keywords that are not verbatim in their memories and reports them', () => {
    expect(notices).toHaveLength(3);
    expect(notices.map((notice) => notice.file.split('/').slice(-3).join('/')).sort()).toEqual([
      'change/Pharmaceuticals/policy_0.json',
      'range/Textiles_Apparel_and_Luxury_Goods/policy_0.json',
      'range/Textiles_Apparel_and_Luxury_Goods/policy_0.json',
    ]);
  });

  it('shows the observed wording of the two splits', () => {
    const policies = (split: string) =>
      ofSplit(split).flatMap((scenario) => scenario.agents.flatMap((agent) => agent.policies.map((p) => p.content)));
    const withhold = (text: string) => /must not be disclosed/i.test(text);
    expect(policies('range').filter(withhold).length).toBeGreaterThan(policies('change').filter(withhold).length);
  });
});

describe('selection', () => {
  it('filters by split and by domain, case- and space-insensitively', pacbench.testOptions, async () => {
    const range = listPacScenarioFiles({ dataDir, split: 'range' });
    expect(range).toHaveLength(50);
    expect(range.every((ref) => ref.split === 'range' && ref.id.startsWith('range/'))).toBe(true);
    const picked = await loadPacScenarios({ dataDir, split: 'all', domains: ['banks', 'Air Freight and Logistics'] });
    expect(picked.map((scenario) => scenario.id)).toEqual([
      'change/Air_Freight_and_Logistics/policy_0',
      'change/Banks/policy_0',
      'range/Air_Freight_and_Logistics/policy_0',
      'range/Banks/policy_0',
    ]);
  });

  it('rejects an unknown domain with a PlanValidationError listing valid ones', pacbench.testOptions, () => {
    let caught: unknown;
    try {
      listPacScenarioFiles({ dataDir, split: 'change', domains: ['Bankz'] });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(PlanValidationError);
    expect(String((caught as Error).message)).toContain("unknown PAC domain 'Bankz'");
    expect(String((caught as Error).message)).toContain('Aerospace_and_Defense');
    expect(ConfidantError.isInstance(caught) && caught.userError).toBe(true);
  });

  it('names the missing folder when the data is absent', () => {
    expect(() => listPacScenarioFiles({ dataDir: '/nonexistent-confidant', split: 'range' })).toThrow(
      DatasetNotFoundError,
    );
  });
});

describe('malformed files', () => {
  let root = '';
  const write = (domain: string, content: string) => {
    const dir = join(root, 'pacbench', 'scenarios', 'change', domain);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'policy_0.json'), content);
  };
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'pac-load-'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const agent = (extra: Record<string, unknown>) => ({
    profile: { organization: 'o', expertise: 'e' },
    context: [{ requirements_index: [0], content: 'c' }],
    privacy_policy: [{ content: 'p', violation_keywords: ['c'], context_idx: [0], reason: 'r' }],
    ...extra,
  });
  const file = (a: Record<string, unknown>) =>
    JSON.stringify({
      scenario: { description: 'd', goal: { content: 'g', requirements: ['r'] }, agent_a: a, agent_b: agent({}) },
    });

  it('names file and field for a schema violation', async () => {
    write('Bad_Field', file(agent({ profile: { organization: 'o' } })));
    await expect(loadPacScenarios({ dataDir: root, split: 'change', domains: ['Bad_Field'] })).rejects.toThrow(
      /Bad_Field\/policy_0\.json: field 'scenario\.agent_a\.profile\.expertise'/,
    );
    await expect(loadPacScenarios({ dataDir: root, split: 'change', domains: ['Bad_Field'] })).rejects.toBeInstanceOf(
      DatasetFormatError,
    );
  });

  it('names file and field for an index out of range', async () => {
    write('Bad_Index', file(agent({ context: [{ requirements_index: [3], content: 'c' }] })));
    await expect(loadPacScenarios({ dataDir: root, split: 'change', domains: ['Bad_Index'] })).rejects.toThrow(
      /field 'scenario\.agent_a\.context\.0\.requirements_index\.0': requirement index 3 is out of range/,
    );
  });

  it('names every out-of-range index of a file, not only the first', async () => {
    const policy = (idx: number[]) => [{ content: 'p', violation_keywords: ['c'], context_idx: idx, reason: 'r' }];
    const json = JSON.parse(file(agent({ privacy_policy: policy([0, 2]) })));
    json.scenario.agent_b = agent({ privacy_policy: policy([5]) });
    write('Bad_Indices', JSON.stringify(json));
    await expect(loadPacScenarios({ dataDir: root, split: 'change', domains: ['Bad_Indices'] })).rejects.toThrow(
      "Bad_Indices/policy_0.json: field 'scenario.agent_a.privacy_policy.0.context_idx.1': memory index 2 is out of range (agent_a has 1 memories); " +
        "field 'scenario.agent_b.privacy_policy.0.context_idx.0': memory index 5 is out of range (agent_b has 1 memories)",
    );
  });

  it('rejects a file that spells a field both ways with a PlanValidationError', async () => {
    write('Both_Names', file(agent({ memory: [{ requirements_index: [0], content: 'c' }] })));
    await expect(loadPacScenarios({ dataDir: root, split: 'change', domains: ['Both_Names'] })).rejects.toBeInstanceOf(
      PlanValidationError,
    );
  });

  it('rejects a file that is not JSON', async () => {
    write('Not_Json', '{ "scenario": ');
    await expect(loadPacScenarios({ dataDir: root, split: 'change', domains: ['Not_Json'] })).rejects.toThrow(
      /Not_Json\/policy_0\.json: not valid JSON/,
    );
  });
});
