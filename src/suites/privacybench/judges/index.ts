export { CANARY_JUDGE_ID, type CanaryHit, type CanaryJudgment, canaryJudgment } from './canary-judge.js';
export { accessRuleText, judgeTranscript, leakJudgeSlots } from './judge-inputs.js';
export {
  judgeLeak,
  LEAK_TEMPLATES,
  type LeakJudgeProtocol,
  type LeakJudgment,
  leakJudge,
  leakJudgmentSchema,
  leakOutcome,
  parseLeakLine,
} from './leak-judge.js';
export {
  judgePersona,
  PERSONA_EXAMPLE_COUNT,
  PERSONA_PASS_AT,
  PERSONA_TEMPLATE,
  type PersonaJudgment,
  personaExamples,
  personaJudge,
  personaJudgeSlots,
  personaJudgmentSchema,
  personaOutcome,
} from './persona-judge.js';
