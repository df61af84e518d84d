import { describe, expect, it } from 'vitest';
import { containsQuestion } from './question-detector.js';

describe('containsQuestion', () => {
  it('finds sentences ending in a question mark', () => {
    expect(containsQuestion('Could you send the dates? I will draft the rest.')).toBe(true);
    expect(containsQuestion('Which site comes first?')).toBe(true);
    expect(containsQuestion('She asked "which room?" and left.')).toBe(true);
    expect(containsQuestion('Is **this** right?**')).toBe(true);
  });

  it('ignores statements, URLs and question marks inside words', () => {
    expect(containsQuestion('Here is the table. [FIN]')).toBe(false);
    expect(containsQuestion('See https://example.test/search?q=rooms for details.')).toBe(false);
    expect(containsQuestion('')).toBe(false);
  });

  it('ignores fenced code, closed or not', () => {
    expect(containsQuestion('Schedule:\n```\nwhere = lookup?\n```\nDone.')).toBe(false);
    expect(containsQuestion('Schedule:\n~~~sql\nSELECT a FROM t -- why?\n')).toBe(false);
    expect(containsQuestion('```\nx?\n```\nAnything else?')).toBe(true);
  });
});
