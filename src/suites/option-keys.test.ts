import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { suiteOptionKeys } from './option-keys.js';
import { loadSuites } from './registry.js';

const suites = await loadSuites();

describe('suiteOptionKeys', () => {
  it('reads the keys of an object schema through refinements, transforms and defaults', () => {
    const object = z.object({ tier: z.string(), instruction: z.string().optional() }).strict();
    expect(suiteOptionKeys(object)).toEqual(['tier', 'instruction']);
    expect(suiteOptionKeys(object.superRefine(() => undefined).transform((value) => value))).toEqual([
      'tier',
      'instruction',
    ]);
    expect(suiteOptionKeys(object.optional())).toEqual(['tier', 'instruction']);
    expect(suiteOptionKeys(z.string())).toBeNull();
  });

  it('names the options of every registered suite', () => {
    const keys = Object.fromEntries(suites.map((suite) => [suite.id, suiteOptionKeys(suite.options)]));
    expect(keys['toy-leak']).toEqual([]);
    expect(keys.confaide).toEqual(['tier', 'instruction', 'questions', 'tier3Proxy', 'ratingPhrases', 'ratingRetries']);
    expect(keys.privacylens).toContain('judgeProtocol');
    expect(keys.pac).toContain('taskMode');
  });
});
