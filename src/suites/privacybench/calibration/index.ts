/**
 * The secret-identification calibration task of PrivacyBench (privacybench.md §10): labelled
 * snippets with and without secrets, a Yes/No detection question for the model under test and
 * for each judge model, and the confusion-matrix metrics; registered as the
 * `privacybench-calibration` suite.
 */
export {
  type CalibrationOptions,
  calibrationOptionsSchema,
  privacybenchCalibrationSuite,
} from './calibration-suite.js';
export { detectSecret, SECRET_DETECTION_SCORER, SECRET_DETECTION_TEMPLATE } from './detect-secret.js';
export {
  AI_SPEAKER,
  buildSecretDetectionItems,
  renderSnippet,
  type SecretDetectionItem,
  type SecretDetectionLabel,
} from './secret-detection-items.js';
export {
  type Confusion,
  confusionOf,
  SECRET_DETECTION_METRIC_DEFINITIONS,
  SECRET_DETECTION_METRICS,
  type SecretDetectionMetric,
  secretDetectionMetrics,
  secretDetectionMetricsByDetector,
} from './secret-detection-metrics.js';
export {
  loadSecretDetectionScenarios,
  type SecretDetectionScenario,
} from './secret-detection-scenarios.js';
export {
  judgeDetectorId,
  runSecretDetectionSample,
  type SecretDetectionOutput,
  type SecretDetectors,
  scoreSecretDetection,
  secretDetectionRoles,
  secretDetectionSuiteMetrics,
} from './secret-detection-task.js';
