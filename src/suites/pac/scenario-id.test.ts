import { describe, expect, it } from 'vitest';
import { formatPacScenarioId, parsePacScenarioId } from './scenario-id.js';

describe('PAC scenario ids', () => {
  it('formats and parses paper and starter ids', () => {
    expect(formatPacScenarioId({ split: 'range', policyType: 'range', domain: 'Banks', policy: 0 })).toBe(
      'range/Banks/policy_0',
    );
    const starter = { split: 'starter', policyType: 'change', domain: 'Clinics', policy: 3 } as const;
    expect(formatPacScenarioId(starter)).toBe('starter/change/Clinics/policy_3');
    expect(parsePacScenarioId('starter/change/Clinics/policy_3')).toEqual(starter);
    const features = { split: 'features', policyType: 'range', domain: 'Street_Festival', policy: 0 } as const;
    expect(formatPacScenarioId(features)).toBe('features/range/Street_Festival/policy_0');
    expect(parsePacScenarioId('features/range/Street_Festival/policy_0')).toEqual(features);
    expect(parsePacScenarioId('change/Air_Freight_and_Logistics/policy_12')).toEqual({
      split: 'change',
      policyType: 'change',
      domain: 'Air_Freight_and_Logistics',
      policy: 12,
    });
  });

  it('returns undefined for other strings', () => {
    for (const id of ['clinic-diagnosis', 'other/Banks/policy_0', 'range/Banks/policy_x', 'range/a/b/policy_0']) {
      expect(parsePacScenarioId(id)).toBeUndefined();
    }
  });
});
