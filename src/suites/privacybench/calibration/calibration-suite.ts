import { z } from 'zod';
import { DEFAULT_MAX_PARSE_RETRIES } from '../../../judges/index.js';
import { judgment } from '../../call-pattern.js';
import { defineSuite } from '../../suite.js';
import { communityOption } from '../privacybench-options.js';
import { communityFiles } from '../privacybench-world.js';
import { SECRET_DETECTION_TEMPLATE } from './detect-secret.js';
import { SECRET_DETECTION_METRIC_DEFINITIONS } from './secret-detection-metrics.js';
import { loadSecretDetectionScenarios, type SecretDetectionScenario } from './secret-detection-scenarios.js';
import {
  runSecretDetectionSample,
  type SecretDetectionOutput,
  scoreSecretDetection,
  secretDetectionRoles,
  secretDetectionSuiteMetrics,
} from './secret-detection-task.js';

/** Options of the calibration suite: which community's snippets, and who is calibrated. */
export const calibrationOptionsSchema = z
  .object({
    community: communityOption,
    detectors: z
      .enum(['agent', 'judges'])
      .default('agent')
      .describe('calibrate the model under test (and any judges), or only the judge models'),
  })
  .strict();

/** Parsed {@link calibrationOptionsSchema}. */
export type CalibrationOptions = z.infer<typeof calibrationOptionsSchema>;

/**
 * PrivacyBench's secret-identification calibration (privacybench.md §10): labelled snippets of the
 * community's chats, with and without secrets; the model under test (unless `detectors=judges`)
 * and every judge model answer a Yes/No "does this reveal a secret" question; the metrics are the
 * confusion matrix of the primary detector, and per detector in `groups.detector`.
 */
export const privacybenchCalibrationSuite = defineSuite<
  SecretDetectionScenario,
  SecretDetectionOutput,
  CalibrationOptions
>({
  id: 'privacybench-calibration',
  version: 1,
  description: "PrivacyBench calibration: can a model (or judge) tell which chat snippets reveal a user's secret?",
  taskKind: 'assistant-turn',
  options: calibrationOptionsSchema,
  flags: [{ flag: '--community', key: 'community' }],
  roles: (options) => secretDetectionRoles(options.detectors),
  dataset: {
    name: 'privacybench',
    files: ({ dataDir, options }) => communityFiles({ dataDir, community: options.community }),
    load: ({ options }) => loadSecretDetectionScenarios({ options }),
    id: (scenario) => scenario.detection.itemId,
  },
  solve: ({ scenario, options, models, emit, signal }) =>
    runSecretDetectionSample({ item: scenario.detection, models, emit, signal, detectors: options.detectors }),
  scorers: [
    {
      id: SECRET_DETECTION_TEMPLATE.id,
      version: SECRET_DETECTION_TEMPLATE.version,
      templates: () => [SECRET_DETECTION_TEMPLATE],
      score: ({ scenario, output, models, emit, signal }) =>
        scoreSecretDetection({ item: scenario.detection, output, models, emit, signal }),
    },
  ],
  // One detection by the model under test (unless detectors=judges), one per judge model.
  callPattern: ({ options, bound }) => [
    ...(options.detectors === 'agent' ? [{ role: 'agent', count: judgment(DEFAULT_MAX_PARSE_RETRIES) }] : []),
    ...(bound('judge').length > 0 ? [{ role: 'judge', count: judgment(DEFAULT_MAX_PARSE_RETRIES) }] : []),
  ],
  metrics: {
    compute: ({ records }) => secretDetectionSuiteMetrics(records),
    definitions: SECRET_DETECTION_METRIC_DEFINITIONS,
  },
});
