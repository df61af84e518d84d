import type { ZodType } from 'zod';
import type { EmitEvent, ModelRoles } from '../spec/chat-model.js';
import type { Defense, TaskKind } from '../spec/defense.js';
import type { JudgeInfo } from '../spec/judge-info.js';
import type { MetricDefinition } from '../spec/metric-definition.js';
import type { MetricValue } from '../spec/metric-value.js';
import type { RoleBinding } from '../spec/model-spec.js';
import type { RunSummary, SampleRecord } from '../spec/run-record.js';
import type { Score } from '../spec/score.js';
import type { CallPatternContext, PlannedCalls } from './call-pattern.js';

/** One unit of work: a scenario under a variant at an epoch. Ids are stable across runs. */
export type SampleSpec = {
  id: string;
  scenarioId: string;
  variant: Record<string, string>;
  epoch: number;
  seed: number;
};

/** What `runSample` returns; scores are computed separately so `rescore` can redo them. */
export type SampleOutcome<Output> = {
  output: Output;
  /** What the model was asked (kept for reports and rescoring). */
  input?: unknown;
  terminationReason?: string;
};

export type { JudgeInfo } from '../spec/judge-info.js';

/**
 * A command-line flag that is sugar for `--set <key>=<value>`. Its meaning is the option's own
 * `.describe()` text in the suite's schema, so flag help and `list options` cannot drift apart.
 */
export type SuiteFlag = { flag: string; key: string };

/**
 * A named starting point for a run (`confidant run <suite> --preset <id>`): suite options as
 * `--set` would give them, and model bindings for the roles the command line and `--config` leave
 * unbound (for agent seats: when no seat is bound). Everything given explicitly wins.
 */
export type SuitePreset = {
  id: string;
  /** One line: what the preset runs and what it needs (e.g. "no model, no network"). */
  description: string;
  options: Readonly<Record<string, unknown>>;
  models?: readonly RoleBinding[];
};

/** A suite's metrics: flat values plus optional breakdowns (`groups[groupBy][groupValue][metric]`). */
export type SuiteMetrics = {
  metrics: Record<string, MetricValue>;
  groups?: Record<string, Record<string, Record<string, MetricValue>>>;
};

/** Everything a suite tells the spine. Scenario ids must be unique within a load. */
export type SuiteDefinition<Scenario, Output, Options> = {
  id: string;
  version: number;
  description: string;
  taskKind: TaskKind;
  /** Dataset folder name under the data dir (`<dataDir>/<name>/`). */
  dataset: string;
  options: ZodType<Options>;
  /**
   * The suite seats several models itself (PAC). The runner then passes the plan's seat bindings
   * (`agent`, `agent-<id>`, in flag order, repeats and `reference:` specs included) in its `seats`
   * option, which its schema must declare, and never resolves its `reference:` seats as models.
   */
  seats?: boolean;
  flags?: SuiteFlag[];
  /** Named option sets (`--preset <id>`, listed by `confidant list presets`). */
  presets?: readonly SuitePreset[];
  /** Roles this plan needs, given the options; missing required roles reject the plan. */
  roles(options: Options): { required: string[]; optional: string[] };
  /** Default settings per role (e.g. ConfAIde's temperature 1 for `agent`); user settings win. */
  defaultSettings?(options: Options, context: { epochs: number }): Record<string, Record<string, unknown>>;
  datasetFiles(options: { dataDir: string; options: Options }): string[];
  loadScenarios(options: { dataDir: string; options: Options }): Promise<Scenario[]>;
  scenarioId(scenario: Scenario): string;
  /** Variants of one scenario (question types, partners…); default: one empty variant. */
  variants?(options: { scenario: Scenario; options: Options }): Array<Record<string, string>>;
  runSample(options: {
    sample: SampleSpec;
    scenario: Scenario;
    options: Options;
    models: ModelRoles;
    defenses: Defense[];
    emit: EmitEvent;
    signal: AbortSignal;
  }): Promise<SampleOutcome<Output>>;
  score(options: {
    sample: SampleSpec;
    scenario: Scenario;
    options: Options;
    output: Output;
    models: ModelRoles;
    emit: EmitEvent;
    signal: AbortSignal;
  }): Promise<Score[]>;
  /**
   * The model calls one sample makes, by role, as counts with ranges where they depend on the
   * model (retries, early stops, turn limits). `confidant run --dry-run` sums them over the plan's
   * samples, expands `answer` calls through the defenses and prices them. Absent: the dry run
   * says the suite declares no call pattern.
   */
  callPattern?(context: CallPatternContext<Scenario, Options>): PlannedCalls[];
  judges(options: Options): JudgeInfo[];
  metrics(options: { records: SampleRecord[]; options: Options }): SuiteMetrics;
  /**
   * Every metric `metrics()` can report (top level and breakdown columns), defined once: reports,
   * `confidant list metrics` and `docs/metrics.md` are generated from these.
   */
  metricDefinitions: readonly MetricDefinition[];
  /**
   * The metrics of the suite's paper table, in order (e.g. PrivacyLens: leak rate, Leak@K,
   * helpfulness mean and binary). Reports over several runs print one row per run with these.
   */
  headline?: string[];
  /**
   * Extra Markdown a report appends for one run (e.g. PAC-Bench's initiator × partner grid);
   * empty when there is nothing to add. Pure: reads only the stored summary.
   */
  reportMarkdown?(summary: RunSummary): string;
};

/** A registered suite: its definition with option types erased at the registry boundary. */
export type Suite = SuiteDefinition<unknown, unknown, unknown>;

/**
 * Declares a suite. The generic parameters keep the suite's own code typed; the returned
 * value is erased to `Suite` so the registry can hold suites of different shapes.
 */
export function defineSuite<Scenario, Output, Options>(definition: SuiteDefinition<Scenario, Output, Options>): Suite {
  return definition as unknown as Suite;
}
