export { type Agreement, cohenKappa } from './cohen-kappa.js';
export { countVerdicts, type VerdictCounts } from './count-verdicts.js';
export { groupBy } from './group-by.js';
export { anyPerGroup, type GroupedScore, meanAndAnyPerGroup, meanOfGroupMeans } from './grouped-rate.js';
export { leakAtK } from './leak-at-k.js';
export { exactMcNemar, type McNemarResult, mcNemarOnPairs } from './mcnemar.js';
export { meanOf, meanValue, standardErrorOf } from './mean.js';
export { meanOverGroups } from './mean-over-groups.js';
export {
  type MetricSet,
  type ScenarioStatistics,
  scenarioBootstrap,
  withIntervals,
  withWilsonInterval,
} from './metric-intervals.js';
export { type MetricsByGroupOptions, metricsByGroup } from './metrics-by-group.js';
export {
  commonExplanation,
  countMetric,
  type NullReasonInput,
  nullReason,
  reasonFromScores,
  withReason,
} from './null-reason.js';
export { type PairedBootstrapResult, type PairedUnit, pairedBootstrap } from './paired-bootstrap.js';
export { pearson } from './pearson.js';
export { percentile } from './percentile.js';
export { failRate, passRate } from './rate.js';
export { failureCause, storedScore } from './stored-score.js';
export { type Interval, wilsonInterval, Z_95 } from './wilson-interval.js';
