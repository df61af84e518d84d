import type { BoundModel, EmitEvent, ModelRoles } from '../../../spec/chat-model.js';
import type { MetricValue } from '../../../spec/metric-value.js';
import type { SampleRecord } from '../../../spec/run-record.js';
import type { Score } from '../../../spec/score.js';
import type { SampleOutcome, SuiteMetrics } from '../../suite.js';
import { detectSecret } from './detect-secret.js';
import type { SecretDetectionItem } from './secret-detection-items.js';
import { secretDetectionMetrics, secretDetectionMetricsByDetector } from './secret-detection-metrics.js';

/**
 * Who answers the detection question: the model under test (`agent`, default; bound judges are
 * calibrated too), or only the judge models (`judges`).
 */
export type SecretDetectors = 'agent' | 'judges';

/** What a detection sample records: the item's facts and the model under test's score. */
export type SecretDetectionOutput = {
  itemId: string;
  label: SecretDetectionItem['label'];
  docType: SecretDetectionItem['docType'];
  sharingKind: SecretDetectionItem['sharingKind'];
  /** The model under test's scored answer; null when only judges are calibrated. */
  agent: Score | null;
};

/** The detector id of the i-th judge model (0-based): `judge:<i+1>:<provider>:<modelId>`. */
export function judgeDetectorId(model: Pick<BoundModel, 'provider' | 'modelId'>, index: number): string {
  return `judge:${index + 1}:${model.provider}:${model.modelId}`;
}

/** The roles the task needs: the model under test (and optionally judges), or only judges. */
export function secretDetectionRoles(detectors: SecretDetectors = 'agent'): { required: string[]; optional: string[] } {
  return detectors === 'agent' ? { required: ['agent'], optional: ['judge'] } : { required: ['judge'], optional: [] };
}

/** `solve` of the calibration suite: the model under test answers (unless only judges are calibrated). */
export async function runSecretDetectionSample({
  item,
  models,
  emit,
  signal,
  detectors = 'agent',
}: {
  item: SecretDetectionItem;
  models: ModelRoles;
  emit: EmitEvent;
  signal?: AbortSignal;
  detectors?: SecretDetectors;
}): Promise<SampleOutcome<SecretDetectionOutput>> {
  const agent =
    detectors === 'agent'
      ? await detectSecret({
          item,
          model: models.model('agent'),
          detector: 'agent',
          emit,
          ...(signal === undefined ? {} : { signal }),
        })
      : null;
  return {
    output: { itemId: item.itemId, label: item.label, docType: item.docType, sharingKind: item.sharingKind, agent },
    input: { snippet: item.messages },
  };
}

/**
 * The calibration suite's scorer: the model under test's stored score, then one score per judge model
 * (each judge answers the same question; `rescore` with other judges recalibrates them).
 */
export async function scoreSecretDetection({
  item,
  output,
  models,
  emit,
  signal,
}: {
  item: SecretDetectionItem;
  output: SecretDetectionOutput;
  models: ModelRoles;
  emit: EmitEvent;
  signal?: AbortSignal;
}): Promise<Score[]> {
  const scores: Score[] = output.agent === null ? [] : [output.agent];
  if (!models.has('judge')) return scores;
  const judges = models.ensemble('judge');
  for (const [index, model] of judges.entries()) {
    scores.push(
      await detectSecret({
        item,
        model,
        detector: judgeDetectorId(model, index),
        emit,
        ...(signal === undefined ? {} : { signal }),
      }),
    );
  }
  return scores;
}

function outputOf(record: SampleRecord): SecretDetectionOutput | undefined {
  const output = record.output;
  if (typeof output !== 'object' || output === null || !('itemId' in output)) return undefined;
  return output as SecretDetectionOutput;
}

/**
 * The calibration suite's metrics. Flat metrics (`tp`, `tn`, `fp`, `fn`, `accuracy`, `precision`,
 * `recall`, `f1`) belong to the primary detector: the model under test when it answered, else the
 * first judge. Samples that errored as a whole add to its `errors` (never to the negatives).
 * Groups: `detector` (every model, judges included) and `sharing_kind` (primary detector; clean
 * snippets under `none`), so recall can be read per person / group / AI secret.
 */
export function secretDetectionSuiteMetrics(records: readonly SampleRecord[]): SuiteMetrics {
  const scores = records.flatMap((record) => record.scores);
  const byDetector = secretDetectionMetricsByDetector(scores);
  const detectors = Object.keys(byDetector).sort();
  const primary = detectors.includes('agent') ? 'agent' : detectors[0];
  const failed = records.filter((record) => record.status === 'error').length;
  const withFailures = (metrics: Record<string, MetricValue>): Record<string, MetricValue> =>
    Object.fromEntries(
      Object.entries(metrics).map(([id, metric]) => [id, { ...metric, errors: metric.errors + failed }]),
    );
  const flat = withFailures(
    primary === undefined ? secretDetectionMetrics([]) : (byDetector[primary] ?? secretDetectionMetrics([])),
  );
  const byKind: Record<string, Record<string, MetricValue>> = {};
  const kinds = new Map<string, Score[]>();
  for (const record of records) {
    const output = outputOf(record);
    if (output === undefined) continue;
    const kind = output.sharingKind ?? 'none';
    const own = record.scores.filter((score) => score.target?.detector === primary);
    kinds.set(kind, [...(kinds.get(kind) ?? []), ...own]);
  }
  for (const [kind, list] of kinds) byKind[kind] = secretDetectionMetrics(list);
  return { metrics: flat, groups: { detector: byDetector, sharing_kind: byKind } };
}
