import { describe, expect, it } from 'vitest';
import { GENERATION_PROMPTS, GENERATION_STEPS, generationPromptVersions } from './generation-prompts.js';

describe('generation prompts', () => {
  it('loads one versioned JSON template per step, each taking the task and the feedback', () => {
    for (const step of GENERATION_STEPS) {
      const template = GENERATION_PROMPTS[step];
      expect(template.id).toBe(`privacybench-gen-${step}`);
      expect(template.version).toBe(1);
      expect(template.protocol).toBe('json');
      expect(template.inputs).toEqual(['task', 'feedback']);
      // The step marker lets a reviewer (and the scripted test model) tell prompts apart.
      expect(template.render({ task: '{}', feedback: '' })).toContain(`(generation step: ${step})`);
    }
  });

  it('lists every template with its hash for the journal', () => {
    const versions = generationPromptVersions();
    expect(Object.keys(versions)).toHaveLength(GENERATION_STEPS.length);
    expect(versions['privacybench-gen-secrets@1']).toMatch(/^[0-9a-f]{64}$/);
  });
});
