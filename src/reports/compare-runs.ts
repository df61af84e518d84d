import { type Agreement, cohenKappa } from '../metrics/cohen-kappa.js';
import { type McNemarResult, mcNemarOnPairs } from '../metrics/mcnemar.js';
import { newcombePairedInterval } from '../metrics/newcombe-paired-interval.js';
import { type PairedBootstrapResult, pairedBootstrap } from '../metrics/paired-bootstrap.js';
import type { Interval } from '../metrics/wilson-interval.js';
import { PlanValidationError } from '../spec/errors.js';
import type { MetricValue } from '../spec/metric-value.js';
import type { Judgment, RunHeader, RunSummary } from '../spec/run-record.js';
import type { Score, Verdict } from '../spec/score.js';
import { scoreKey } from './per-sample-rows.js';

/**
 * What `compareRuns` reads of a sample's latest record: its id, scenario, score verdicts (by
 * scorer and target) and judge verdicts. A whole `SampleRecord` is one; `compareRecord` keeps
 * only these fields, so a reader can hold every sample of a large run for the pairing.
 */
export type CompareRecord = {
  id: string;
  scenarioId: string;
  scores: ReadonlyArray<Pick<Score, 'scorer' | 'target' | 'verdict'>>;
  judgments?: ReadonlyArray<Pick<Judgment, 'judge' | 'model' | 'verdict'>>;
};

/** One run as `compare` reads it: header, summary and its latest records (or their `compareRecord` form). */
export type CompareInput = { header: RunHeader; summary: RunSummary; records: readonly CompareRecord[] };

/** A summary metric in both runs and the difference `b − a` of their values. */
export type MetricDifference = { id: string; a: MetricValue | null; b: MetricValue | null; difference: number | null };

/** One score key (scorer and target) judged pass/fail on the same samples in both runs. */
export type PairedScore = {
  key: string;
  /** Samples where both runs have a pass or fail verdict for this key. */
  pairs: number;
  failRateA: number;
  failRateB: number;
  /** Exact McNemar on the per-sample fail outcomes (b = failed only in A, c = failed only in B). */
  mcnemar: McNemarResult;
  /** Paired bootstrap over scenarios of the fail-rate difference B − A. */
  bootstrap: PairedBootstrapResult | null;
  /**
   * The 95% interval of B − A that reports print: the bootstrap's, or, when the bootstrap collapsed
   * to one point (every scenario gave the same difference, e.g. no verdict changed), Newcombe's
   * paired score interval with each scenario counted as one unit (`ciMethod: 'newcombe'`), so a
   * handful of agreeing pairs does not read as certainty.
   */
  ci95: Interval | null;
  ciMethod: 'paired-bootstrap' | 'newcombe' | null;
  /** Agreement of the two runs' verdicts (pass, fail, error, n/a) on the samples both scored. */
  agreement: Agreement;
};

/** A sample whose verdict for a score key went from pass to fail or back. */
export type FlippedSample = { sampleId: string; scenarioId: string; key: string; a: string; b: string };

/**
 * One judge (template and version) in both runs: its verdicts paired call by call within each
 * sample both runs hold (the i-th call of the judge in A with the i-th in B), grouped by the judge
 * models on each side. For a run and its rescore with another judge model, this is the agreement
 * of the two judge models on the same inputs.
 */
export type JudgeAgreement = { judge: string; modelA: string; modelB: string; agreement: Agreement };

/** Run B against the baseline A. */
export type RunComparison = {
  a: { runId: string; dir?: string };
  b: { runId: string; dir?: string };
  /** Samples in both runs; samples in only one are left out and counted. */
  shared: number;
  onlyInA: number;
  onlyInB: number;
  metrics: MetricDifference[];
  scores: PairedScore[];
  /** Verdict agreement per judge (and judge models), over the judge calls of the shared samples. */
  judges: JudgeAgreement[];
  flipped: FlippedSample[];
  /** Set when B re-scored A's outputs (`confidant rescore`): what the rescore changed. */
  rescore?: { changed: string[] };
};

/** Whether one run re-scored the other's outputs, or both re-scored one run's (same samples, same outputs). */
function sameOutputs(a: RunHeader, b: RunHeader): boolean {
  const source = (header: RunHeader) => header.rescoredFrom?.runId ?? header.runId;
  return (a.rescoredFrom !== undefined || b.rescoredFrom !== undefined) && source(a) === source(b);
}

/**
 * Why two runs cannot be compared, as one sentence; null when they can. A run and its rescore
 * (or two rescores of one run) are comparable even when the rescore changed suite options: they
 * hold the same samples and outputs.
 */
export function incomparableReason(a: RunHeader, b: RunHeader): string | null {
  if (a.suite.id !== b.suite.id)
    return `${b.runId} is a ${b.suite.id} run and ${a.runId} a ${a.suite.id} run: compare runs of one suite`;
  if (sameOutputs(a, b)) return null;
  const keys = [...new Set([...Object.keys(a.plan.suiteOptions), ...Object.keys(b.plan.suiteOptions)])].sort();
  const differing = keys.filter(
    (key) => JSON.stringify(a.plan.suiteOptions[key]) !== JSON.stringify(b.plan.suiteOptions[key]),
  );
  if (differing.length > 0) {
    const show = (header: RunHeader) =>
      differing.map((key) => `${key}=${JSON.stringify(header.plan.suiteOptions[key])}`).join(', ');
    return `${a.runId} and ${b.runId} ran different ${a.suite.id} options (${show(a)} vs ${show(b)}), so their scenarios and metrics differ: compare runs of the same options (e.g. the same tier)`;
  }
  if (a.dataset.hash !== b.dataset.hash) {
    return `${a.runId} and ${b.runId} read different ${a.dataset.name} data (dataset hash ${a.dataset.hash.slice(0, 12)} vs ${b.dataset.hash.slice(0, 12)}): compare runs on the same data`;
  }
  return null;
}

const decided = (verdict: string | undefined) => verdict === 'pass' || verdict === 'fail';

/**
 * The fields of a record `compareRuns` reads, and no more: the first score per score key (as
 * `{ scorer: <key>, verdict }`) and each judgment's judge, model and verdict. `compareRuns` gives
 * the same comparison for the record and for this form. `intern` (optional) shares repeated
 * strings (scenario ids, keys, verdicts, judge and model names) between the rows of a run.
 */
export function compareRecord(record: CompareRecord, intern: (text: string) => string = (text) => text): CompareRecord {
  const scores: Array<{ scorer: string; verdict: Verdict }> = [];
  const seen = new Set<string>();
  for (const score of record.scores) {
    const key = scoreKey(score);
    if (seen.has(key)) continue;
    seen.add(key);
    scores.push({ scorer: intern(key), verdict: intern(score.verdict) as Verdict });
  }
  return {
    id: record.id,
    scenarioId: intern(record.scenarioId),
    scores,
    ...(record.judgments === undefined
      ? {}
      : {
          judgments: record.judgments.map((judgment) => ({
            judge: intern(judgment.judge),
            model: intern(judgment.model),
            verdict: intern(judgment.verdict) as Verdict,
          })),
        }),
  };
}

/** The first score per key of a record. */
function scoresByKey(record: CompareRecord): Map<string, CompareRecord['scores'][number]> {
  const map = new Map<string, CompareRecord['scores'][number]>();
  for (const score of record.scores) if (!map.has(scoreKey(score))) map.set(scoreKey(score), score);
  return map;
}

/**
 * Compares run B with baseline A over the samples both hold: every summary metric with its
 * difference, and per score key the paired tests on per-sample fail outcomes (exact McNemar; a
 * paired bootstrap of the rate difference resampling scenarios), the verdict agreement (percent
 * and Cohen's kappa: the judge agreement of a run and its rescore), and the samples that flipped.
 * Throws a user error (exit 2) for runs of different suites, options or data.
 */
export function compareRuns({
  a,
  b,
  dirs,
}: {
  a: CompareInput;
  b: CompareInput;
  dirs?: { a?: string; b?: string };
}): RunComparison {
  const reason = incomparableReason(a.header, b.header);
  if (reason !== null) throw new PlanValidationError(reason);
  const recordsB = new Map(b.records.map((record) => [record.id, record]));
  const idsA = new Set(a.records.map((record) => record.id));
  const shared = a.records.filter((record) => recordsB.has(record.id));
  const keys: string[] = [];
  const perKey = new Map<string, Array<{ a: string; b: string; scenarioId: string; sampleId: string }>>();
  for (const recordA of shared) {
    const recordB = recordsB.get(recordA.id);
    if (recordB === undefined) continue;
    const scoresB = scoresByKey(recordB);
    for (const [key, scoreA] of scoresByKey(recordA)) {
      const scoreB = scoresB.get(key);
      if (scoreB === undefined) continue;
      if (!perKey.has(key)) {
        keys.push(key);
        perKey.set(key, []);
      }
      perKey
        .get(key)
        ?.push({ a: scoreA.verdict, b: scoreB.verdict, scenarioId: recordA.scenarioId, sampleId: recordA.id });
    }
  }
  const scores: PairedScore[] = [];
  const flipped: FlippedSample[] = [];
  for (const key of keys) {
    const all = perKey.get(key) ?? [];
    const both = all.filter((pair) => decided(pair.a) && decided(pair.b));
    for (const pair of both) {
      if (pair.a !== pair.b)
        flipped.push({ sampleId: pair.sampleId, scenarioId: pair.scenarioId, key, a: pair.a, b: pair.b });
    }
    if (both.length === 0) continue;
    const fails = (side: 'a' | 'b') => both.filter((pair) => pair[side] === 'fail').length / both.length;
    scores.push({
      key,
      pairs: both.length,
      failRateA: fails('a'),
      failRateB: fails('b'),
      mcnemar: mcNemarOnPairs(both.map((pair) => ({ a: pair.a === 'fail', b: pair.b === 'fail' }))),
      ...pairedInterval(both),
      agreement: cohenKappa(all.map((pair) => ({ a: pair.a, b: pair.b }))),
    });
  }
  const judges = judgeAgreements({ shared, recordsB });
  const metricIds = [...new Set([...Object.keys(a.summary.metrics), ...Object.keys(b.summary.metrics)])];
  return {
    a: { runId: a.header.runId, ...(dirs?.a === undefined ? {} : { dir: dirs.a }) },
    b: { runId: b.header.runId, ...(dirs?.b === undefined ? {} : { dir: dirs.b }) },
    shared: shared.length,
    onlyInA: a.records.length - shared.length,
    onlyInB: b.records.filter((record) => !idsA.has(record.id)).length,
    metrics: metricIds.map((id) => {
      const valueA = a.summary.metrics[id] ?? null;
      const valueB = b.summary.metrics[id] ?? null;
      const difference =
        valueA?.value === null || valueA?.value === undefined || valueB?.value === null || valueB?.value === undefined
          ? null
          : valueB.value - valueA.value;
      return { id, a: valueA, b: valueB, difference };
    }),
    scores,
    judges,
    flipped,
    ...(b.header.rescoredFrom?.runId === a.header.runId
      ? { rescore: { changed: Object.keys(b.header.rescoredFrom.changed) } }
      : {}),
  };
}

/** The bootstrap of the fail-rate difference B − A, and the interval to print (see `PairedScore.ci95`). */
function pairedInterval(
  pairs: ReadonlyArray<{ a: string; b: string; scenarioId: string }>,
): Pick<PairedScore, 'bootstrap' | 'ci95' | 'ciMethod'> {
  const units = pairs.map((pair) => ({
    a: pair.a === 'fail' ? 1 : 0,
    b: pair.b === 'fail' ? 1 : 0,
    cluster: pair.scenarioId,
  }));
  const bootstrap = pairedBootstrap({ units });
  if (bootstrap === null) return { bootstrap, ci95: null, ciMethod: null };
  if (bootstrap.ci95.lower < bootstrap.ci95.upper)
    return { bootstrap, ci95: bootstrap.ci95, ciMethod: 'paired-bootstrap' };
  const table = { both: 0, firstOnly: 0, secondOnly: 0, neither: 0 };
  for (const unit of units) {
    if (unit.a === 1 && unit.b === 1) table.both += 1;
    else if (unit.b === 1) table.firstOnly += 1;
    else if (unit.a === 1) table.secondOnly += 1;
    else table.neither += 1;
  }
  const ci95 = newcombePairedInterval({ table, n: bootstrap.clusters });
  return { bootstrap, ci95, ciMethod: ci95 === null ? null : 'newcombe' };
}

/** Per judge and pair of judge models: the agreement of their verdicts, call by call per shared sample. */
function judgeAgreements({
  shared,
  recordsB,
}: {
  shared: readonly CompareRecord[];
  recordsB: ReadonlyMap<string, CompareRecord>;
}): JudgeAgreement[] {
  const groups = new Map<
    string,
    { judge: string; modelA: string; modelB: string; pairs: Array<{ a: string; b: string }> }
  >();
  const byJudge = (record: CompareRecord | undefined) => {
    const map = new Map<string, NonNullable<CompareRecord['judgments']>>();
    for (const judgment of record?.judgments ?? [])
      map.set(judgment.judge, [...(map.get(judgment.judge) ?? []), judgment]);
    return map;
  };
  for (const recordA of shared) {
    const judgmentsB = byJudge(recordsB.get(recordA.id));
    for (const [judge, listA] of byJudge(recordA)) {
      const listB = judgmentsB.get(judge) ?? [];
      for (let index = 0; index < Math.min(listA.length, listB.length); index += 1) {
        const left = listA[index];
        const right = listB[index];
        if (left === undefined || right === undefined) continue;
        const key = JSON.stringify([judge, left.model, right.model]);
        const group = groups.get(key) ?? { judge, modelA: left.model, modelB: right.model, pairs: [] };
        group.pairs.push({ a: left.verdict, b: right.verdict });
        groups.set(key, group);
      }
    }
  }
  return [...groups.values()].map(({ pairs, ...group }) => ({ ...group, agreement: cohenKappa(pairs) }));
}
