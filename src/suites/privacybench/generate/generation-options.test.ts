import { describe, expect, it } from 'vitest';
import {
  GENERATION_DEFAULTS,
  LAPTOP_GENERATION_PARAMETERS,
  PAPER_GENERATION_PARAMETERS,
  resolveGenerationOptions,
} from './generation-options.js';

describe('resolveGenerationOptions', () => {
  it('defaults to the laptop parameters of privacybench.md §2', () => {
    const options = resolveGenerationOptions({ communityId: 'c1' });
    expect(options).toEqual({
      communityId: 'c1',
      ...GENERATION_DEFAULTS,
      steps: 4,
      seedPersonas: [],
      parameters: LAPTOP_GENERATION_PARAMETERS,
    });
    expect(LAPTOP_GENERATION_PARAMETERS).toMatchObject({
      users: 8,
      seedPersonas: 3,
      groups: 2,
      privateConversationsPerUser: 60,
      conversationNoiseRatio: 0.3,
      secretsPerUser: { person: 2, group: 1, ai: 1 },
    });
  });

  it('selects the paper preset and merges overrides field by field', () => {
    const options = resolveGenerationOptions({
      preset: 'paper',
      communityId: 'c2',
      overrides: { seed: 5, parameters: { users: 9, secretsPerUser: { person: 1 } } },
    });
    expect(options.steps).toBe(12);
    expect(options.seed).toBe(5);
    expect(options.parameters).toEqual({
      ...PAPER_GENERATION_PARAMETERS,
      users: 9,
      secretsPerUser: { person: 1, group: 1.1, ai: 4.4 },
    });
  });

  it('rejects inconsistent options', () => {
    expect(() =>
      resolveGenerationOptions({
        communityId: 'c',
        overrides: { timeline: { start: '2024-05-01', end: '2024-01-01' } },
      }),
    ).toThrow(/ends before it starts/);
    expect(() =>
      resolveGenerationOptions({ communityId: 'c', overrides: { parameters: { users: 2, seedPersonas: 3 } } }),
    ).toThrow(/seed personas/);
    expect(() =>
      resolveGenerationOptions({ communityId: 'c', overrides: { seedPersonas: [{ persona: 'only one' }] } }),
    ).toThrow(/has 1 personas; 3 are needed/);
    expect(() => resolveGenerationOptions({ communityId: 'bad id' })).toThrow();
    expect(() =>
      resolveGenerationOptions({ communityId: 'c', overrides: { parameters: { conversationNoiseRatio: 1.5 } } }),
    ).toThrow();
  });
});
