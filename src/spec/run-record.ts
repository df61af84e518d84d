import { z } from 'zod';
import { errorCauseCountSchema, errorCauseSchema } from './error-cause.js';
import { transcriptEventSchema } from './event.js';
import { lazySchema } from './lazy-schema.js';
import { metricValueSchema } from './metric-value.js';
import { runPlanSchema } from './run-plan.js';
import { scoreSchema, verdictSchema } from './score.js';

export const FORMAT_VERSION = 1;

const modelDescriptionSchema = z.object({
  provider: z.string(),
  modelId: z.string(),
  endpoints: z.array(z.string()),
  settings: z.record(z.string(), z.unknown()),
});

/**
 * Where and how a run was started, so the printed `confidant resume <dir>` works as is from any
 * directory and with no environment variables: the resolved directories and the `--config`
 * file's contents. Absent in headers written before it existed.
 */
export const runInvocationSchema = z.object({
  /** The working directory of `run`; relative paths in the plan (e.g. a community) resolve against it. */
  cwd: z.string(),
  /** The resolved data directory (absolute). */
  dataDir: z.string(),
  /** The resolved response cache directory (absolute). */
  cacheDir: z.string(),
  /** The `--config` file and its contents as read. */
  config: z.object({ path: z.string(), contents: z.unknown() }).optional(),
});
export type RunInvocation = z.infer<typeof runInvocationSchema>;

/** One `resume` that changed a setting (safe overrides only), with each value before and after. */
export const runResumeSchema = z.object({
  at: z.string(),
  changed: z.record(z.string(), z.object({ from: z.unknown(), to: z.unknown() })),
});
export type RunResume = z.infer<typeof runResumeSchema>;

/**
 * The lineage of a run made by `rescore`: the run whose stored outputs it scored anew (its id and
 * directory) and what changed (scoring models, suite options, settings), each value before and after.
 */
export const runRescoreSchema = z.object({
  runId: z.string(),
  dir: z.string(),
  at: z.string(),
  changed: z.record(z.string(), z.object({ from: z.unknown(), to: z.unknown() })),
});
export type RunRescore = z.infer<typeof runRescoreSchema>;

/**
 * `header.json`: written when the run directory is created; `resume` rewrites it only to record
 * the safe overrides it was given (`resumes`), never the plan's identity (`planHash`).
 */
export const runHeaderSchema = z.object({
  formatVersion: z.literal(FORMAT_VERSION),
  runId: z.string(),
  /**
   * `generation` for the run directory of a data generation (`confidant generate <suite>`): one
   * record per session with its datagen calls, no scores. Absent (an evaluation) in other runs.
   */
  kind: z.enum(['evaluation', 'generation']).optional(),
  /** A generation's generator (the suite id), its flags as parsed and its output folder. */
  generation: z
    .object({ generator: z.string(), flags: z.record(z.string(), z.unknown()), outDir: z.string() })
    .optional(),
  createdAt: z.string(),
  confidantVersion: z.string(),
  nodeVersion: z.string(),
  dependencyVersions: z.record(z.string(), z.string()),
  plan: runPlanSchema,
  planHash: z.string(),
  suite: z.object({ id: z.string(), version: z.number() }),
  dataset: z.object({
    name: z.string(),
    files: z.array(z.object({ path: z.string(), sha256: z.string() })),
    hash: z.string(),
    /** The resolved folder `files` are relative to, for data read from outside `<dataDir>/<name>/`. */
    root: z.string().optional(),
    /** The suite's load warnings (e.g. policies that can never be violated), printed before the run. */
    warnings: z.array(z.string()).optional(),
  }),
  models: z.record(z.string(), z.array(modelDescriptionSchema)),
  judges: z.array(z.object({ id: z.string(), version: z.number(), templateSha256: z.string() })),
  defenses: z.array(z.string()),
  shard: z.object({ index: z.number(), count: z.number() }).optional(),
  /** Sample ids this run (or shard) is responsible for, in order. */
  sampleIds: z.array(z.string()),
  mergedFrom: z.array(z.string()).optional(),
  invocation: runInvocationSchema.optional(),
  resumes: z.array(runResumeSchema).optional(),
  /** Set when this run re-scored another run's outputs (`confidant rescore`): no solve calls were made. */
  rescoredFrom: runRescoreSchema.optional(),
});
export type RunHeader = z.infer<typeof runHeaderSchema>;

export const roleUsageSchema = z.object({
  calls: z.number(),
  inputTokens: z.number(),
  outputTokens: z.number(),
  costUsd: z.number().nullable(),
  cachedCalls: z.number(),
});
export type RoleUsage = z.infer<typeof roleUsageSchema>;

/**
 * One judge call of a sample in brief (from its `judge-call` event): which judge, which model,
 * the verdict and, for `error`, the cause. Records carry these so that judge health and error
 * causes can be summarised without reading the events.
 */
export const judgmentSchema = lazySchema(() =>
  z.object({
    /** `<template id>@<version>`. */
    judge: z.string(),
    /** `<provider>:<modelId>`, or `unknown` when the event did not say. */
    model: z.string(),
    verdict: verdictSchema,
    error: errorCauseSchema.optional(),
  }),
);
export type Judgment = z.infer<typeof judgmentSchema>;

/** One line of `samples.jsonl`. Readers keep the last record per `id`. */
export const sampleRecordSchema = lazySchema(() =>
  z.object({
    id: z.string(),
    scenarioId: z.string(),
    variant: z.record(z.string(), z.string()),
    epoch: z.number(),
    seed: z.number(),
    status: z.enum(['ok', 'error']),
    startedAt: z.string(),
    finishedAt: z.string(),
    attempt: z.number(),
    input: z.unknown().optional(),
    output: z.unknown().nullable(),
    scores: z.array(scoreSchema),
    events: z.array(transcriptEventSchema),
    usage: z.record(z.string(), roleUsageSchema),
    terminationReason: z.string().optional(),
    error: z
      .object({
        name: z.string(),
        message: z.string(),
        participantId: z.string().optional(),
        /** The grouping form of the failure (the provider fault behind it, when there is one). */
        cause: errorCauseSchema.optional(),
      })
      .optional(),
    /** Every judge call of the sample in brief, in event order (absent in older records). */
    judgments: z.array(judgmentSchema).optional(),
    artifacts: z.array(z.string()).optional(),
  }),
);
export type SampleRecord = z.infer<typeof sampleRecordSchema>;

/** The verdicts of one judge (template and version) on one model over a run, and its most common errors. */
export const judgeHealthSchema = z.object({
  /** `<template id>@<version>`. */
  judge: z.string(),
  /** `<provider>:<modelId>` of the judge model. */
  model: z.string(),
  calls: z.number(),
  pass: z.number(),
  fail: z.number(),
  notApplicable: z.number(),
  error: z.number(),
  /** The most common error causes first (at most five). */
  topErrors: z.array(z.object({ message: z.string(), count: z.number() })),
});
export type JudgeHealth = z.infer<typeof judgeHealthSchema>;

/**
 * How many samples failed: `errored` samples (status error), `judgeErrored` samples that ran but
 * had at least one judge call end in `error`, `scoreErrored` samples that ran, had no failed judge
 * call, but a scorer could not score them (absent when 0, and in runs written before it was counted), and
 * `rate` = (errored + judgeErrored + scoreErrored) / finished samples (null when none finished).
 * `judgeErrors` counts the failed judge calls themselves.
 */
export const failureCountsSchema = z.object({
  errored: z.number(),
  judgeErrored: z.number(),
  judgeErrors: z.number(),
  scoreErrored: z.number().optional(),
  rate: z.number().nullable(),
});
export type FailureCounts = z.infer<typeof failureCountsSchema>;

/** The samples `failures` counts as failed: errored, judge-errored and score-errored. */
export function failedSampleCount(failures: FailureCounts): number {
  return failures.errored + failures.judgeErrored + (failures.scoreErrored ?? 0);
}

/** `summary.json`: recomputed from the records at the end of run, resume and merge. */
export const runSummarySchema = z.object({
  formatVersion: z.literal(FORMAT_VERSION),
  runId: z.string(),
  finishedAt: z.string(),
  complete: z.boolean(),
  stopReason: z.string().optional(),
  counts: z.object({ planned: z.number(), success: z.number(), error: z.number(), missing: z.number() }),
  metrics: z.record(z.string(), metricValueSchema),
  groups: z.record(z.string(), z.record(z.string(), z.record(z.string(), metricValueSchema))).optional(),
  /** Every call made, by role: the latest records' and those of records later superseded. */
  usage: z.record(z.string(), roleUsageSchema),
  /** The part of `usage` that belongs to superseded records (retried errors); absent when none. */
  supersededUsage: z.record(z.string(), roleUsageSchema).optional(),
  costUsd: z.number().nullable(),
  errorsByName: z.record(z.string(), z.number()),
  failures: failureCountsSchema.optional(),
  /** Errored samples and failed judge calls grouped by cause, most common first. */
  errorCauses: z.array(errorCauseCountSchema).optional(),
  /** One entry per judge and judge model that was called. */
  judges: z.array(judgeHealthSchema).optional(),
});
export type RunSummary = z.infer<typeof runSummarySchema>;
