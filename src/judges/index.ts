export { DEFAULT_ANSWER_MARKER, matchAnswerMarker, splitLines } from './answer-marker.js';
export {
  type EnsembleKind,
  type EnsembleResult,
  type EnsembleVote,
  type RunEnsembleOptions,
  runEnsemble,
} from './ensemble.js';
export { answerLineReplies, exampleReplyProblems, jsonReplies } from './example-replies.js';
export {
  type AnswerLineJudgeDefinition,
  assertJudgeDefinition,
  defineJudge,
  type JsonJudgeDefinition,
  type JudgeDefinition,
  type JudgedOutcome,
  type JudgeOutcome,
} from './judge.js';
export { JUDGE_DEFAULT_SEED, JUDGE_DEFAULT_SETTINGS, JUDGE_ROLE } from './judge-role.js';
export {
  type JudgeProtocol,
  type JudgeTemplate,
  judgeInfo,
  judgeName,
  loadJudgeTemplate,
  parseJudgeTemplate,
} from './judge-template.js';
export {
  type KeywordHit,
  type KeywordJudgment,
  keywordJudge,
  normalizeForMatching,
  QUOTE_CONTEXT,
} from './keyword-judge.js';
export { DEFAULT_NEUTRALIZED_MARKERS, NEUTRALIZED_LINE_PREFIX, neutralize } from './neutralize.js';
export { type AnswerLine, answerLineParser, parseAnswerLine } from './parse-answer-line.js';
export {
  DEFAULT_MAX_PARSE_RETRIES,
  type JudgeResult,
  MODEL_CALL_EVENT_METADATA_KEY,
  type RunJudgeOptions,
  runJudge,
} from './run-judge.js';
export { type ScorableResult, toScore } from './to-score.js';
