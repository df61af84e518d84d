import { describe, expect, it } from 'vitest';
import { createValueSharer } from './share-equal-values.js';

describe('createValueSharer', () => {
  it('returns one frozen instance for equal JSON values, equal to what was given', () => {
    const share = createValueSharer();
    const first = share({ scorer: 'leak@1', target: { name: 'leak' }, value: 0 });
    const second = share(JSON.parse('{"scorer":"leak@1","target":{"name":"leak"},"value":0}'));
    expect(second).toBe(first);
    expect(first).toEqual({ scorer: 'leak@1', target: { name: 'leak' }, value: 0 });
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.target)).toBe(true);
    expect(() => {
      (first.target as { name: string }).name = 'changed';
    }).toThrow(TypeError);
    expect(share({ scorer: 'leak@1', target: { name: 'other' }, value: 0 })).not.toBe(first);
  });

  it('never freezes the caller’s object and passes scalars through', () => {
    const share = createValueSharer();
    const given = { a: [1, 2] };
    share(given);
    expect(Object.isFrozen(given)).toBe(false);
    expect(share(7)).toBe(7);
    expect(share(null)).toBe(null);
    expect(share('ok')).toBe('ok');
  });

  it('past maxEntries, still shares what it knows and returns new values unshared', () => {
    const share = createValueSharer({ maxEntries: 1 });
    const known = share({ n: 1 });
    expect(share({ n: 1 })).toBe(known);
    const fresh = { n: 2 };
    expect(share(fresh)).toBe(fresh);
    expect(Object.isFrozen(fresh)).toBe(false);
  });
});
