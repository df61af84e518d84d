import { describe, expect, it } from 'vitest';
import { matchAnswerMarker, splitLines } from './answer-marker.js';

describe('matchAnswerMarker', () => {
  it.each([
    ['Answer: Yes', 'Yes'],
    ['answer:   no  ', 'no'],
    ['ANSWER:Yes', 'Yes'],
    ['### Answer: Yes', 'Yes'],
    ['> Answer: Yes', 'Yes'],
    ['  - Answer: Yes', 'Yes'],
    ['**Answer:** Yes', 'Yes'],
    ['**Answer**: Yes', 'Yes'],
    ['__Answer:__ **No**', 'No'],
    ['`Answer:` Yes', 'Yes'],
    ['Answer:', ''],
  ])('reads %j as a marker line with answer %j', (line, answer) => {
    expect(matchAnswerMarker({ line, marker: 'Answer:' })).toBe(answer);
  });

  it.each(['The answer: Yes', 'My Answer: Yes', '› Answer: Yes', '‹Answer: Yes', '1. Answer: Yes', 'Answer - Yes'])(
    'does not read %j as a marker line',
    (line) => {
      expect(matchAnswerMarker({ line, marker: 'Answer:' })).toBeNull();
    },
  );

  it('requires a marker that ends in a letter to end a word', () => {
    expect(matchAnswerMarker({ line: 'Verdict pass', marker: 'Verdict' })).toBe('pass');
    expect(matchAnswerMarker({ line: 'Verdicts pass', marker: 'Verdict' })).toBeNull();
  });

  it('treats regular-expression characters in a custom marker literally', () => {
    expect(matchAnswerMarker({ line: 'Score (0-3): 2', marker: 'Score (0-3):' })).toBe('2');
    expect(matchAnswerMarker({ line: 'Score 0-3: 2', marker: 'Score (0-3):' })).toBeNull();
  });

  it('matches nothing for a blank marker', () => {
    expect(matchAnswerMarker({ line: 'Answer: Yes', marker: '  ' })).toBeNull();
  });
});

describe('splitLines', () => {
  it('splits on every line break a reader may see', () => {
    expect(splitLines('a\r\nb\rc\nd\u2028e\u2029f\u0085g\vh\fi')).toEqual([
      'a',
      'b',
      'c',
      'd',
      'e',
      'f',
      'g',
      'h',
      'i',
    ]);
  });
});
