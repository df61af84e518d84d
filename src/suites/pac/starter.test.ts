import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { listPacScenarioFiles, type PacLoadNotice } from './load-scenarios.js';
import { parsePacScenarioId } from './scenario-id.js';
import { loadNpartyScenarios, loadStarterScenarios } from './starter.js';

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

  it('keeps the N-party scenarios in their own split (--split nparty), out of the default starter set', async () => {
    const notices: PacLoadNotice[] = [];
    const scenarios = await loadNpartyScenarios({ onNotice: (notice) => notices.push(notice) });
    expect(scenarios.map((scenario) => scenario.id)).toEqual(['nparty/range/Laser_Cutter_Tender/policy_0']);
    expect(scenarios.every((scenario) => scenario.split === 'nparty')).toBe(true);
    expect(parsePacScenarioId('nparty/range/Laser_Cutter_Tender/policy_0')).toEqual({
      split: 'nparty',
      policyType: 'range',
      domain: 'Laser_Cutter_Tender',
      policy: 0,
    });
    expect(notices).toEqual([]);
  });

  it('has a four-party negotiation with direct messages and audience-scoped policies', async () => {
    const [tender] = await loadNpartyScenarios({ domains: ['Laser_Cutter_Tender'] });
    expect(tender?.messaging).toBe('direct');
    expect(tender?.agents.map((agent) => `${agent.id}:${agent.displayName}:${agent.role}`)).toEqual([
      'buyer:Priya Natarajan:Buyer',
      'north:Tomas Berg:Supplier',
      'harbor:Lena Okafor:Supplier',
      'ridge:Marco Silva:Supplier',
    ]);
    expect(tender?.agents.flatMap((agent) => agent.policies.map((policy) => policy.audience ?? null))).toEqual([
      null,
      { allowedRecipients: ['buyer'] },
      { allowedRecipients: ['buyer'] },
      { minClearance: 2 },
      { forbiddenRecipients: ['north', 'harbor'] },
    ]);
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
