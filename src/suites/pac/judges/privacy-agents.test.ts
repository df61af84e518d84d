import { describe, expect, it } from 'vitest';
import { twoAgentScenario } from './__fixtures__/pac-judge-fixtures.js';
import { privacyAgents } from './privacy-agents.js';

const ids = (variant: string, who: 'all' | 'initiator') =>
  privacyAgents({ scenario: twoAgentScenario(), variant, options: { privacyAgents: who } }).map((agent) => agent.id);

describe('privacyAgents', () => {
  it('follows the option unless the variant overrides it', () => {
    expect(ids('default', 'all')).toEqual(['agent_a', 'agent_b']);
    expect(ids('default', 'initiator')).toEqual(['agent_a']);
    expect(ids('privacy-cot', 'all')).toEqual(['agent_a', 'agent_b']);
    expect(ids('adversarial-partner', 'all')).toEqual(['agent_a']);
    expect(ids('privacy-free', 'all')).toEqual([]);
    expect(ids('not-registered', 'all')).toEqual(['agent_a', 'agent_b']);
  });
});
