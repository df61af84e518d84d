import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { listPacScenarioFiles } from './load-scenarios.js';
import { loadStarterScenarios } from './starter.js';

describe('starter scenarios', () => {
  it('load through the schema with stable ids, both policy types and a three-agent collaboration', async () => {
    const notices: unknown[] = [];
    const scenarios = await loadStarterScenarios({ onNotice: (notice) => notices.push(notice) });
    expect(scenarios.map((scenario) => scenario.id)).toEqual([
      'starter/change/Community_Health_Clinics/policy_0',
      'starter/range/Artisan_Bakeries/policy_0',
      'starter/range/Museum_Exhibitions/policy_0',
    ]);
    expect(scenarios.every((scenario) => scenario.split === 'starter')).toBe(true);
    expect(scenarios.map((scenario) => scenario.policyType)).toEqual(['change', 'range', 'range']);
    expect(scenarios.map((scenario) => scenario.agents.length)).toEqual([2, 2, 3]);
    // every keyword is verbatim in its memories, so the naive agent (verbatim copy) always trips the keyword judge
    expect(notices).toEqual([]);
  });

  it('annotate every requirement with markers, and every agent has a policy with keywords', async () => {
    for (const scenario of await loadStarterScenarios()) {
      expect(scenario.checks?.requirementMarkers).toHaveLength(scenario.goal.requirements.length);
      for (const agent of scenario.agents) {
        expect(agent.policies.length).toBeGreaterThan(0);
        expect(agent.policies.every((policy) => policy.violationKeywords.length > 0)).toBe(true);
      }
    }
  });

  it('uses the generator field names in one file (both spellings are exercised)', async () => {
    const refs = listPacScenarioFiles({ dataDir: '', split: 'starter', domains: ['artisan bakeries'] });
    expect(refs.map((ref) => ref.id)).toEqual(['starter/range/Artisan_Bakeries/policy_0']);
    const raw = JSON.parse(readFileSync(refs[0]?.path ?? '', 'utf8')) as { scenario: Record<string, object> };
    expect(Object.keys(raw.scenario.agent_a ?? {}).sort()).toEqual(['memory', 'privacy_constraint', 'profile']);
    const [bakery] = await loadStarterScenarios({ domains: ['Artisan_Bakeries'] });
    expect(bakery?.agents[1]?.policies[0]?.memoryIndices).toEqual([0]);
    expect(bakery?.agents[1]?.policies[0]?.violationKeywords).toEqual(['4471#', '9026#']);
  });
});
