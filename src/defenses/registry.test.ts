import { describe, expect, it } from 'vitest';
import { ConfidantError } from '../spec/errors.js';
import { defenseRegistry, resolveDefense } from './registry.js';

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

describe('resolveDefense for the PrivAct baselines', () => {
  it('resolves privacy-prompt and its alias ppe to the same prompt defense', () => {
    const byId = resolveDefense({ id: 'privacy-prompt', taskKind: 'final-action' });
    expect(byId).toMatchObject({ id: 'privacy-prompt', kind: 'prompt' });
    expect(resolveDefense({ id: 'ppe', taskKind: 'free-text-answer' })).toBe(byId);
    expect(() => resolveDefense({ id: 'ppe:x', taskKind: 'final-action' })).toThrow(/takes no parameter/);
  });

  it('requires a topology for chain and names the defense by its canonical shape', () => {
    expect(resolveDefense({ id: 'chain:G>[V,V]>R', taskKind: 'assistant-turn' })).toMatchObject({
      id: 'chain:G>[V,V]>R',
      kind: 'responder',
    });
    expect(resolveDefense({ id: 'chain:generator>refiner', taskKind: 'final-action' }).id).toBe('chain:G>R');
    expect(() => resolveDefense({ id: 'chain', taskKind: 'final-action' })).toThrow(
      /defense 'chain' needs a parameter: chain:<topology>/,
    );
    expect(() => resolveDefense({ id: 'chain:G>V', taskKind: 'final-action' })).toThrow(
      /last stage must be a single actor/,
    );
  });

  it('takes an optional parameter for the 1-2-3 check, through its alias too', () => {
    expect(resolveDefense({ id: 'one-two-three-check', taskKind: 'final-action' }).id).toBe('one-two-three-check');
    expect(resolveDefense({ id: 'aifc', taskKind: 'final-action' }).id).toBe('one-two-three-check');
    expect(resolveDefense({ id: 'aifc:upstream', taskKind: 'final-action' }).id).toBe('one-two-three-check:upstream');
    expect(() => resolveDefense({ id: 'aifc:', taskKind: 'final-action' })).toThrow(/empty parameter/);
    expect(() => resolveDefense({ id: 'aifc:loose', taskKind: 'final-action' })).toThrow(/':loose'/);
  });

  it('rejects the PrivAct defenses for collaboration turns, which they do not support', () => {
    for (const id of ['ppe', 'chain:G>V>R', 'aifc']) {
      expect(() => resolveDefense({ id, taskKind: 'collaboration-turn' })).toThrow(
        /does not apply to collaboration-turn/,
      );
    }
  });

  it('lists every family once with a usage line', () => {
    expect(defenseRegistry.map((entry) => [entry.usage, entry.parametric])).toEqual([
      ['vanilla', false],
      ['privacy-prompt', false],
      ['chain:<topology>', 'required'],
      ['one-two-three-check[:upstream]', 'optional'],
      ['access-controlled-retrieval[:secret-acl|:participants]', 'optional'],
    ]);
  });
});
