import { describe, expect, it } from 'vitest';
import { groupBy } from './group-by.js';

describe('groupBy', () => {
  it('keeps first-seen key order and input order inside groups', () => {
    const groups = groupBy({ items: ['b1', 'a1', 'b2', 'c1', 'a2'], key: (item) => item[0] });
    expect([...groups.keys()]).toEqual(['b', 'a', 'c']);
    expect(groups.get('a')).toEqual(['a1', 'a2']);
    expect(groups.get('b')).toEqual(['b1', 'b2']);
  });

  it('returns an empty map for no items', () => {
    expect(groupBy({ items: [], key: () => 'x' }).size).toBe(0);
  });
});
