/**
 * The secret-identification calibration task of PrivacyBench (privacybench.md §10): labelled
 * snippets with and without secrets, a Yes/No detection question for the model under test and
 * for each judge model, and the confusion-matrix metrics.
 */
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
  judgeDetectorId,
  runSecretDetectionSample,
  SECRET_DETECTION_TASK,
  type SecretDetectionOutput,
  type SecretDetectors,
  scoreSecretDetection,
  secretDetectionRoles,
  secretDetectionSuiteMetrics,
} from './secret-detection-task.js';
