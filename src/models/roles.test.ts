import { describe, expect, it } from 'vitest';
import { isKnownRole, isRepeatableRole, roleFallbacks } from './roles.js';

describe('roles', () => {
  it('knows the documented roles and agent seats, and nothing else', () => {
    for (const role of ['agent', 'agent-a', 'agent-b2', 'generator', 'prober', 'judge', 'summarizer', 'datagen']) {
      expect(isKnownRole(role)).toBe(true);
    }
    for (const role of ['agents', 'agent-', 'agent-<id>', 'Judge', 'critic', '']) {
      expect(isKnownRole(role)).toBe(false);
    }
  });

  it('gives the documented fallbacks', () => {
    expect(roleFallbacks('agent-a')).toEqual(['agent']);
    expect(roleFallbacks('generator')).toEqual(['agent']);
    expect(roleFallbacks('executor')).toEqual(['agent']);
    expect(roleFallbacks('summarizer')).toEqual(['judge', 'agent']);
    expect(roleFallbacks('agent')).toEqual([]);
    expect(roleFallbacks('prober')).toEqual([]);
    expect(roleFallbacks('embedder')).toEqual([]);
  });

  it('never lets the judge fall back to a model under test', () => {
    expect(roleFallbacks('judge')).toEqual([]);
  });

  it('returns a fresh array each time', () => {
    roleFallbacks('generator').push('mutated');
    expect(roleFallbacks('generator')).toEqual(['agent']);
  });

  it('judge (ensemble) and agent-<id> seats (grid) are repeatable, nothing else', () => {
    expect(isRepeatableRole('judge')).toBe(true);
    expect(isRepeatableRole('agent')).toBe(false);
    expect(isRepeatableRole('agent-a')).toBe(true);
  });
});
