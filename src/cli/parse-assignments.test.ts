import { describe, expect, it } from 'vitest';
import { parseAssignment, parseModelSettings, parsePositiveInteger } from './parse-assignments.js';

describe('flag parsing', () => {
  it('reads scalars as JSON and keeps other text as strings', () => {
    expect(parseAssignment({ text: 'tier=2a', flag: '--set' })).toEqual({ key: 'tier', value: '2a' });
    expect(parseAssignment({ text: 'tier=3', flag: '--set' })).toEqual({ key: 'tier', value: 3 });
    expect(parseAssignment({ text: 'list=["a","b"]', flag: '--set' }).value).toEqual(['a', 'b']);
    expect(parseAssignment({ text: 'url=http://x/?a=b', flag: '--set' }).value).toBe('http://x/?a=b');
  });

  it('groups model settings by role and rejects malformed ones', () => {
    expect(parseModelSettings(['agent.temperature=0', 'agent.seed=7', 'judge.temperature=0.5'])).toEqual({
      agent: { temperature: 0, seed: 7 },
      judge: { temperature: 0.5 },
    });
    expect(() => parseModelSettings(['temperature=0'])).toThrow(/role\.key=value/);
    expect(() => parseAssignment({ text: 'novalue', flag: '--set' })).toThrow(/--set expects key=value/);
  });

  it('rejects non-positive integers', () => {
    expect(parsePositiveInteger({ text: '4', flag: '--epochs' })).toBe(4);
    expect(() => parsePositiveInteger({ text: '0', flag: '--epochs' })).toThrow(/--epochs/);
    expect(() => parsePositiveInteger({ text: '1.5', flag: '--limit' })).toThrow(/--limit/);
  });
});
