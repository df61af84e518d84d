import { describe, expect, it } from 'vitest';
import { ConfidantError } from '../spec/errors.js';
import { resolveDefense } from './registry.js';

describe('resolveDefense', () => {
  it('resolves vanilla to an identity prompt transform', () => {
    const defense = resolveDefense({ id: 'vanilla', taskKind: 'free-text-answer' });
    expect(defense.kind).toBe('prompt');
    const prompt = { systemLine: 's', sections: [], instruction: 'i', render: () => [] };
    expect(defense.kind === 'prompt' && defense.transform(prompt)).toBe(prompt);
  });

  it('rejects an unknown defense with a user error naming the known ones', () => {
    let caught: unknown;
    try {
      resolveDefense({ id: 'magic', taskKind: 'free-text-answer' });
    } catch (error) {
      caught = error;
    }
    expect(ConfidantError.isInstance(caught) && caught.userError).toBe(true);
    expect(String(caught)).toMatch(/unknown defense 'magic'.*vanilla/);
  });

  it('rejects a parameter on a plain defense', () => {
    expect(() => resolveDefense({ id: 'vanilla:x', taskKind: 'final-action' })).toThrow(/takes no parameter/);
  });
});
