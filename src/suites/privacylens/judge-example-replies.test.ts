import { describe, expect, it } from 'vitest';
import { exampleReplyProblems } from '../../judges/index.js';
import { HELPFULNESS_PARSES, helpfulnessJudge } from './helpfulness-judge.js';
import { JUDGE_PROTOCOLS, leakJudge } from './leak-judge.js';

describe('PrivacyLens judges declare a valid reply for each verdict (what mock:judge-* answer)', () => {
  it.each(JUDGE_PROTOCOLS)('leak judge, %s protocol', (protocol) => {
    expect(exampleReplyProblems(leakJudge(protocol))).toEqual([]);
  });

  it.each(JUDGE_PROTOCOLS.flatMap((protocol) => HELPFULNESS_PARSES.map((parse) => ({ protocol, parse }))))(
    'helpfulness judge, $protocol protocol, $parse parse',
    ({ protocol, parse }) => {
      const judge = helpfulnessJudge({ protocol, parse });
      expect(exampleReplyProblems(judge)).toEqual([]);
    },
  );
});
