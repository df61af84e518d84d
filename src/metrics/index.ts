export { countVerdicts, type VerdictCounts } from './count-verdicts.js';
export { groupBy } from './group-by.js';
export { anyPerGroup, type GroupedScore, meanOfGroupMeans } from './grouped-rate.js';
export { leakAtK } from './leak-at-k.js';
export { meanOf, meanValue, standardErrorOf } from './mean.js';
export {
  commonExplanation,
  countMetric,
  type NullReasonInput,
  nullReason,
  reasonFromScores,
  withReason,
} from './null-reason.js';
export { pearson } from './pearson.js';
export { failRate, passRate } from './rate.js';
