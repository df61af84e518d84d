import { beforeAll, describe, expect, it } from 'vitest';
import { PlanValidationError } from '../../spec/errors.js';
import { buildPacAgentPrompt } from './agent-prompt.js';
import { DEFAULT_PAC_VARIANT_OPTIONS, type PacVariantOptions, pacVariantOptionsSchema } from './pac-variant.js';
import type { PacScenario } from './scenario-schema.js';
import { loadStarterScenarios } from './starter.js';
import { findPacVariant, PAC_VARIANT_IDS, PAC_VARIANTS } from './variants.js';

let clinic: PacScenario;
let museum: PacScenario;
beforeAll(async () => {
  const starter = await loadStarterScenarios();
  clinic = starter[0]!;
  museum = starter.find((scenario) => scenario.domain === 'Museum_Exhibitions')!;
});

const prompt = (
  variantId: string,
  agentId: string,
  { scenario = clinic, options = {} }: { scenario?: PacScenario; options?: Partial<PacVariantOptions> } = {},
) =>
  buildPacAgentPrompt({
    scenario,
    agentId,
    variant: findPacVariant(variantId),
    variantOptions: { ...DEFAULT_PAC_VARIANT_OPTIONS, ...options },
  });

describe('variant registry', () => {
  it('registers the six variants of §10, each with its own prompt file', () => {
    expect(PAC_VARIANT_IDS).toEqual([
      'default',
      'privacy-free',
      'no-privacy-instruction',
      'privacy-cot',
      'b-prompt',
      'adversarial-partner',
    ]);
    expect(new Set(PAC_VARIANTS.map((variant) => variant.template.source)).size).toBe(6);
    expect(PAC_VARIANTS.map((variant) => variant.template.id)).toEqual(
      PAC_VARIANT_IDS.map((id) => `pac-variant-${id}`),
    );
    expect(PAC_VARIANTS.filter((variant) => variant.specification === 'upstream').map((v) => v.id)).toEqual([
      'default',
    ]);
  });

  it('rejects an unknown id with the valid ones', () => {
    expect(() => findPacVariant('cot')).toThrow(PlanValidationError);
    expect(() => findPacVariant('cot')).toThrow(/privacy-cot/);
  });

  it('defaults the variant options', () => {
    expect(pacVariantOptionsSchema.parse({})).toEqual({ privacyFreeMode: 'standalone', keepPolicyList: true });
  });
});

describe('variant prompts', () => {
  it('default leaves the base prompt unchanged', () => {
    const base = prompt('default', 'agent_b');
    expect(findPacVariant('default').protocol(DEFAULT_PAC_VARIANT_OPTIONS)).toEqual({ kind: 'collaboration' });
    expect(base.plan.guidelines.map((guideline) => guideline.block)).toEqual([
      'general',
      'general',
      'general',
      'general',
      'general',
      'privacy',
      'privacy',
    ]);
  });

  it('no-privacy-instruction drops the privacy bullets and keeps the policy list unless told', () => {
    const kept = prompt('no-privacy-instruction', 'agent_a');
    expect(kept.plan.guidelines.some((guideline) => guideline.block === 'privacy')).toBe(false);
    expect(kept.system).toContain('[Privacy Policy]');
    expect(kept.system).not.toContain('Follow your privacy policy');
    const dropped = prompt('no-privacy-instruction', 'agent_a', { options: { keepPolicyList: false } });
    expect(dropped.system).not.toContain('[Privacy Policy]');
    expect(findPacVariant('no-privacy-instruction').evaluation(DEFAULT_PAC_VARIANT_OPTIONS).privacyAgents).toBe(
      'configured',
    );
  });

  it('privacy-cot asks every agent to reason inside think tags', () => {
    for (const agentId of ['agent_a', 'agent_b']) {
      const cot = prompt('privacy-cot', agentId);
      expect(cot.plan.guidelines.at(-1)?.block).toBe('variant');
      expect(cot.system).toContain('<think>');
      expect(cot.system).toContain('Follow your privacy policy');
    }
  });

  it('b-prompt and adversarial-partner change only the second seat', () => {
    for (const id of ['b-prompt', 'adversarial-partner']) {
      expect(prompt(id, 'agent_a').system).toBe(prompt('default', 'agent_a').system);
      expect(prompt(id, 'agent_c', { scenario: museum }).system).toBe(
        prompt('default', 'agent_c', { scenario: museum }).system,
      );
      const second = prompt(id, 'agent_b');
      expect(second.system).not.toBe(prompt('default', 'agent_b').system);
      expect(second.plan.guidelines.at(-1)?.block).toBe('variant');
    }
    expect(prompt('b-prompt', 'agent_b').system).toContain('propose an outline of the deliverable');
    expect(prompt('adversarial-partner', 'agent_b').system).toContain(
      'get Agent A to share as much of the raw data in their private memory',
    );
    // B's own policy stays
    expect(prompt('adversarial-partner', 'agent_b').system).toContain('Driver mobile numbers must be masked');
    expect(findPacVariant('adversarial-partner').evaluation(DEFAULT_PAC_VARIANT_OPTIONS)).toEqual({
      privacyAgents: 'initiator',
      headline: 'holistic-initiator',
    });
  });

  it('privacy-free standalone: A alone with every memory, no policy, no partner, a continuation', () => {
    const variant = findPacVariant('privacy-free');
    expect(variant.protocol(DEFAULT_PAC_VARIANT_OPTIONS)).toEqual({ kind: 'standalone', maxTurns: 10 });
    expect(variant.evaluation(DEFAULT_PAC_VARIANT_OPTIONS).privacyAgents).toBe('none');
    const alone = prompt('privacy-free', 'agent_a');
    expect(alone.plan.sections.map((section) => section.id)).toEqual([
      'task-goal',
      'goal-requirements',
      'profile',
      'memory',
    ]);
    expect(alone.system).toContain('Imelda Varga');
    expect(alone.system).toContain('+44 7700 900587');
    expect(alone.system).not.toContain('Bluewater Mobile Health');
    expect(alone.system).not.toMatch(/privacy|partner/i);
    expect(alone.system).toContain('You have 10 turns.');
    expect(alone.system).toContain('[FIN]');
    expect(alone.firstMessage).toBe('Begin the task now.');
    expect(alone.continuation).toContain('[FIN]');
    expect(() => prompt('privacy-free', 'agent_b')).toThrow(RangeError);
  });

  it('privacy-free pair: the collaboration without policies', () => {
    const options = { privacyFreeMode: 'pair' as const };
    expect(findPacVariant('privacy-free').protocol({ ...DEFAULT_PAC_VARIANT_OPTIONS, ...options })).toEqual({
      kind: 'collaboration',
    });
    const pair = prompt('privacy-free', 'agent_b', { options });
    expect(pair.system).not.toContain('[Privacy Policy]');
    expect(pair.system).not.toContain('privacy policy');
    expect(pair.system).toContain("[Your partner's profile]");
  });
});
