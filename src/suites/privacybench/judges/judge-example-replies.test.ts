import { describe, expect, it } from 'vitest';
import { exampleReplyProblems } from '../../../judges/index.js';
import { leakJudge } from './leak-judge.js';
import { personaJudge } from './persona-judge.js';

describe('PrivacyBench judges declare a valid reply for each verdict (what mock:judge-* answer)', () => {
  it.each(['json', 'answer-line'] as const)('leak judge, %s protocol', (protocol) => {
    expect(exampleReplyProblems(leakJudge(protocol))).toEqual([]);
  });

  it('persona judge', () => {
    expect(exampleReplyProblems(personaJudge)).toEqual([]);
  });
});
