import { describe, expect, it } from 'vitest';
import { exampleReplyProblems } from '../../../judges/index.js';
import { awarenessJudge } from './awareness-judge.js';
import { contextAlignmentJudge } from './context-alignment-judge.js';
import { gevalJudge } from './geval-entity-judge.js';
import { keywordVariantsJudge } from './keyword-variants-judge.js';
import { TASK_ARTIFACT_TEMPLATE } from './task-artifact-judge.js';
import { taskJudge } from './task-evaluation.js';
import { TASK_MESSAGE_TEMPLATE } from './task-message-judge.js';

describe('PAC-Bench judges declare a valid reply for each verdict (what mock:judge-* answer)', () => {
  it('awareness judge', () => expect(exampleReplyProblems(awarenessJudge)).toEqual([]));
  it('context alignment judge', () => expect(exampleReplyProblems(contextAlignmentJudge)).toEqual([]));
  it('G-Eval entity judge', () => expect(exampleReplyProblems(gevalJudge)).toEqual([]));
  it('keyword variants judge (one outcome)', () => expect(exampleReplyProblems(keywordVariantsJudge)).toEqual([]));

  it.each([1, 3, 5])('task judges over %i requirements', (count) => {
    for (const template of [TASK_MESSAGE_TEMPLATE, TASK_ARTIFACT_TEMPLATE]) {
      expect(exampleReplyProblems(taskJudge({ template, count }))).toEqual([]);
    }
  });
});
