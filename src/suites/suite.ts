import type { ZodType } from 'zod';
import type { ScenarioStatistics } from '../metrics/metric-intervals.js';
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

/** What `solve` returns; scores are computed separately so `rescore` can redo them. */
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

/** What locates a suite's data: the data dir and the run's parsed options. */
export type DatasetContext<Options> = {
  dataDir: string;
  options: Options;
  /**
   * Reports data that loads but will not be judged as its author probably meant (a privacy
   * policy that can never be violated, …): printed before the run and kept in the run header.
   */
  warn?: (message: string) => void;
};

/**
 * Where a suite's scenarios come from (Inspect's `dataset`). Scenario ids must be unique within a
 * load; the plan's samples are scenario × variant × epoch.
 */
export type SuiteDataset<Scenario, Options> = {
  /** Dataset folder name under the data dir (`<dataDir>/<name>/`). */
  name: string;
  /** The files a run reads, hashed into the run header (empty when the data is built in). */
  files(context: DatasetContext<Options>): string[];
  load(context: DatasetContext<Options>): Promise<Scenario[]>;
  /** The scenario's stable id (sample ids start with it). */
  id(scenario: Scenario): string;
  /** Variants of one scenario (question types, partners…); default: one empty variant. */
  variants?(context: { scenario: Scenario; options: Options }): Array<Record<string, string>>;
};

/** What `solve` gets for one sample. */
export type SolveContext<Scenario, Options> = {
  sample: SampleSpec;
  scenario: Scenario;
  options: Options;
  models: ModelRoles;
  defenses: Defense[];
  emit: EmitEvent;
  signal: AbortSignal;
};

/** What a scorer gets for one sample: the solved output beside everything `solve` had. */
export type ScoreContext<Scenario, Output, Options> = {
  sample: SampleSpec;
  scenario: Scenario;
  options: Options;
  output: Output;
  models: ModelRoles;
  emit: EmitEvent;
  signal: AbortSignal;
};

/** The identity of a prompt template a scorer renders: what the run header records of a judge. */
export type TemplateRef = { readonly id: string; readonly version: number; readonly sha256: string };

/**
 * One check over a sample's output (Inspect's `scorer`). Its scores carry `scorer: <id>@<version>`
 * (a scorer that checks several components may name each, e.g. ConfAIde's per-question checks).
 * A scorer that does not apply to a sample returns no score.
 */
export type Scorer<Scenario, Output, Options> = {
  id: string;
  version: number;
  /**
   * The LLM judge templates it renders under these options; none for deterministic checks. The
   * run header's judge list is derived from these ({@link suiteJudges}), so it names exactly what scores.
   */
  templates?(options: Options): readonly TemplateRef[];
  score(context: ScoreContext<Scenario, Output, Options>): Promise<Score[]>;
};

/** A suite's metrics: how they are computed from the records and what each one means. */
export type SuiteMetricSet<Options> = {
  /**
   * Every metric `compute` can report (top level and breakdown columns), defined once: reports,
   * `confidant list metrics` and `docs/metrics.md` are generated from these.
   */
  definitions: readonly MetricDefinition[];
  /**
   * `breakdowns: false` says only the flat `metrics` will be read (the summary's bootstrap
   * recomputes them for every resample), so `groups` may be left out; the flat metrics must be
   * the same either way.
   */
  compute(context: { records: SampleRecord[]; options: Options; breakdowns?: boolean }): SuiteMetrics;
  /**
   * The part of a record `compute` reads, when it reads less than the whole record: the summary
   * keeps this view of every sample's latest record (already without events and `input`), so a
   * large run's summary holds scores rather than texts. It must not change what `compute` returns.
   * Default: the record as it is.
   */
  retain?(record: SampleRecord): SampleRecord;
  /**
   * The flat metrics from per-scenario statistics (see `ScenarioStatistics` for the contract),
   * when they depend on the records only through those: the summary's bootstrap then costs one
   * summary per drawn scenario rather than a recompute over every record of each resample.
   * Optional (absent, or undefined for some options: the bootstrap recomputes `compute`).
   */
  scenarioStatistics?(options: Options): ScenarioStatistics | undefined;
};

/**
 * A chart a suite draws for one run (the HTML report and viewer render it as inline SVG):
 * `columns` is a histogram over ordered bins, `curve` a line over an ordered x (e.g. Leak@k over
 * k). Values are fractions for `percent`, counts for `count`; `lower`/`upper` draw a 95% interval.
 */
export type SuiteChart = {
  kind: 'columns' | 'curve';
  title: string;
  xLabel: string;
  yLabel: string;
  scale: 'percent' | 'count';
  points: Array<{ label: string; value: number | null; lower?: number; upper?: number }>;
};

/** What reports add for a suite. Pure: hooks read only the stored summary (and, for charts, the records without events). */
export type SuiteReport = {
  /**
   * The metrics of the suite's paper table, in order (e.g. PrivacyLens: leak rate, Leak@K,
   * helpfulness mean and binary). Reports over several runs print one row per run with these.
   */
  headline?: string[];
  /** Extra Markdown for one run (e.g. PAC-Bench's initiator × partner grid); empty when there is nothing to add. */
  markdown?(summary: RunSummary): string;
  /** Suite-specific charts of one run (PAC's first-violation turns, PrivacyBench's leaks by round, Leak@k). */
  charts?(context: { summary: RunSummary; records: readonly SampleRecord[] }): SuiteChart[];
};

/**
 * Everything a suite tells the spine, as values (Inspect's `Task`): the data (`dataset`), how one
 * sample is played (`solve`), how it is checked (`scorers`), what is reported (`metrics`, `report`).
 */
export type SuiteDefinition<Scenario, Output, Options> = {
  id: string;
  version: number;
  description: string;
  taskKind: TaskKind;
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
  /**
   * The options that make this suite score exactly as its upstream code does (`--fidelity
   * upstream`, docs/fidelity.md): laid beneath the plan's own options, so an explicit `--set`
   * still wins. Absent or empty: the suite has no departures from its upstream scorer.
   */
  upstreamOptions?: Readonly<Record<string, unknown>>;
  /** Roles this plan needs, given the options; missing required roles reject the plan. */
  roles(options: Options): { required: string[]; optional: string[] };
  /** Default settings per role (e.g. ConfAIde's temperature 1 for `agent`); user settings win. */
  defaultSettings?(options: Options, context: { epochs: number }): Record<string, Record<string, unknown>>;
  dataset: SuiteDataset<Scenario, Options>;
  /** Plays one sample: asks the models (through the defenses) and returns what they produced. */
  solve(context: SolveContext<Scenario, Options>): Promise<SampleOutcome<Output>>;
  /** The checks of a solved sample, run in order; a sample's scores are theirs concatenated. */
  scorers: readonly Scorer<Scenario, Output, Options>[];
  /**
   * The model calls one sample makes, by role, as counts with ranges where they depend on the
   * model (retries, early stops, turn limits). `confidant run --dry-run` sums them over the plan's
   * samples, expands `answer` calls through the defenses and prices them. Absent: the dry run
   * says the suite declares no call pattern.
   */
  callPattern?(context: CallPatternContext<Scenario, Options>): PlannedCalls[];
  metrics: SuiteMetricSet<Options>;
  report?: SuiteReport;
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

/** Runs a suite's scorers in order over one solved sample; the sample's scores are theirs concatenated. */
export async function scoreSample<Scenario, Output, Options>({
  scorers,
  ...context
}: ScoreContext<Scenario, Output, Options> & {
  scorers: readonly Scorer<Scenario, Output, Options>[];
}): Promise<Score[]> {
  const scores: Score[] = [];
  for (const scorer of scorers) scores.push(...(await scorer.score(context)));
  return scores;
}

/**
 * The LLM judges a plan uses (id, version, template hash; first-seen order, each once), derived
 * from the templates its scorers declare: the run header's judge list. Empty when every check is
 * deterministic, so the plan needs no `judge` model.
 */
export function suiteJudges<Options>({
  scorers,
  options,
}: {
  scorers: readonly Pick<Scorer<never, never, Options>, 'templates'>[];
  options: Options;
}): JudgeInfo[] {
  const judges = new Map<string, JudgeInfo>();
  for (const scorer of scorers) {
    for (const template of scorer.templates?.(options) ?? []) {
      const key = `${template.id}@${template.version}`;
      if (!judges.has(key))
        judges.set(key, { id: template.id, version: template.version, templateSha256: template.sha256 });
    }
  }
  return [...judges.values()];
}
