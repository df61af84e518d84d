import { describe, expect, it } from 'vitest';
import type { MetricDefinition } from '../spec/metric-definition.js';
import { runPlanSchema } from '../spec/run-plan.js';
import type { RunHeader, RunSummary } from '../spec/run-record.js';
import { buildReport, formatMetric } from './build-report.js';
import { renderCsv } from './render-csv.js';
import { renderJson } from './render-json.js';
import { renderMarkdown } from './render-markdown.js';

const definition = (id: string, label: string): MetricDefinition => ({
  id,
  label,
  definition: `${label} means something.`,
  formula: 'a / b',
  denominator: 'n: b',
  direction: 'lower',
  scale: 'percent',
  source: { kind: 'paper', reference: 'a table' },
});
const FR_E: readonly MetricDefinition[] = [definition('fr_e', 'FR-E'), definition('fr_e_worst', 'FR-E (worst)')];

function fixture(): { header: RunHeader; summary: RunSummary } {
  const header: RunHeader = {
    formatVersion: 1,
    runId: '20261130-000000-confaide-abc123',
    createdAt: '2026-11-30T00:00:00.000Z',
    confidantVersion: '0.1.0',
    nodeVersion: 'v20',
    dependencyVersions: {},
    plan: runPlanSchema.parse({ suite: 'confaide', suiteOptions: { tier: '3' }, epochs: 2 }),
    planHash: 'abc123',
    suite: { id: 'confaide', version: 1 },
    dataset: { name: 'confaide', files: [], hash: 'h' },
    models: { agent: [{ provider: 'mock', modelId: 'echo', endpoints: [], settings: {} }] },
    judges: [],
    defenses: ['vanilla'],
    sampleIds: ['a', 'b'],
  };
  const summary: RunSummary = {
    formatVersion: 1,
    runId: header.runId,
    finishedAt: '2026-11-30T00:00:01.000Z',
    complete: true,
    counts: { planned: 2, success: 1, error: 1, missing: 0 },
    metrics: {
      fr_e_worst: { value: 1, n: 1, errors: 1, notApplicable: 0 },
      fr_e: { value: 0.5, n: 1, errors: 1, notApplicable: 0 },
      extra: { value: null, n: 0, errors: 0, notApplicable: 2 },
    },
    usage: { agent: { calls: 2, inputTokens: 10, outputTokens: 4, costUsd: null, cachedCalls: 1 } },
    costUsd: null,
    errorsByName: { ProviderError: 1 },
  };
  return { header, summary };
}

describe('buildReport', () => {
  it('folds <id>_worst into the base row and orders display metrics first', () => {
    const report = buildReport({ runs: [fixture()], definitions: FR_E });
    expect(report.rows.map((row) => row.id)).toEqual(['fr_e', 'extra']);
    expect(report.rows[0]?.cells[0]?.worst?.value).toBe(1);
    expect(report.rows[0]?.label).toBe('FR-E');
  });

  it('formats percent, raw, missing and null values distinctly (null is never 0)', () => {
    expect(formatMetric({ value: 0.5, n: 1, errors: 0, notApplicable: 0 }, 'percent')).toBe('50.0');
    expect(formatMetric({ value: 0.5, n: 1, errors: 0, notApplicable: 0 }, 'raw')).toBe('0.500');
    expect(formatMetric({ value: null, n: 0, errors: 3, notApplicable: 0 }, 'percent')).toBe('n/a');
    expect(formatMetric(null, 'raw')).toBe('—');
    expect(formatMetric({ value: 12, n: 12, errors: 0, notApplicable: 0 }, 'count')).toBe('12');
  });

  it('renders markdown with denominators, unknown cost and escaped cells', () => {
    const { header, summary } = fixture();
    header.plan.suiteOptions = { note: 'a|b <script>' };
    const markdown = renderMarkdown(buildReport({ runs: [{ header, summary }], definitions: FR_E }));
    expect(markdown).toContain('| FR-E (%) | 50.0 | 100.0 | 1 / 1 / 0 |');
    expect(markdown).toContain('| extra | n/a | — | 0 / 0 / 2 |');
    expect(markdown).toContain('a\\|b &lt;script&gt;');
    expect(markdown).not.toContain('<script>');
    expect(markdown).toMatch(/\| agent \| 2 \| 1 \| 10 \| 4 \| unknown \|/);
  });

  it('links every defined metric to docs/metrics.md and names the undefined ones', () => {
    const report = buildReport({ runs: [fixture()], definitions: FR_E });
    expect(report.rows[0]).toMatchObject({ anchor: 'confaide-fr_e', worstAnchor: 'confaide-fr_e_worst' });
    const markdown = renderMarkdown(report);
    const section = markdown.slice(markdown.indexOf('## Metric definitions'));
    expect(section.split('\n').slice(0, 6)).toEqual([
      '## Metric definitions',
      '',
      '- **FR-E** (`fr_e`, lower is better): FR-E means something. ([definition](docs/metrics.md#confaide-fr_e))',
      '- **FR-E (worst)** (`fr_e_worst`, lower is better): FR-E (worst) means something. ([definition](docs/metrics.md#confaide-fr_e_worst))',
      '- Not defined by the suite: `extra`.',
      '',
    ]);
    expect(renderMarkdown(buildReport({ runs: [fixture()] }))).toContain(
      '## Metric definitions\n\n- Not defined by the suite: `fr_e`, `extra`.',
    );
  });

  it('prints one comparison row per run with the headline metrics when several runs are shown', () => {
    const first = fixture();
    const second = fixture();
    second.header.runId = 'second';
    second.header.defenses = ['chain:G>V>R'];
    second.summary.metrics.fr_e = { value: 0.25, n: 4, errors: 0, notApplicable: 0 };
    const markdown = renderMarkdown(
      buildReport({
        runs: [first, second],
        definitions: FR_E,
        headline: ['fr_e', 'absent'],
      }),
    );
    expect(markdown).toContain('| Run | FR-E (%) | Calls | Cost (USD) |');
    expect(markdown).toContain('| mock:echo | 50.0 | 2 | unknown |');
    expect(markdown).toContain('| mock:echo [chain:G&gt;V&gt;R] | 25.0 | 2 | unknown |');
  });

  it('prints why a value is n/a, the errors by cause, judge health and superseded usage', () => {
    const { header, summary } = fixture();
    summary.metrics.extra = {
      value: null,
      n: 0,
      errors: 0,
      notApplicable: 2,
      reason: 'all 2 verdicts were not-applicable: <b>filtered</b> out',
    };
    summary.failures = { errored: 1, judgeErrored: 1, judgeErrors: 3, rate: 1 };
    summary.errorCauses = [
      {
        kind: 'sample',
        name: 'ProviderError',
        message: 'connection refused',
        endpoint: 'http://127.0.0.1:8000/v1',
        count: 1,
        exampleSampleId: 'a',
      },
      { kind: 'judge', judge: 'leak@1', name: 'JudgeParseError', message: 'no JSON', count: 3, exampleSampleId: 'b' },
    ];
    summary.judges = [
      {
        judge: 'leak@1',
        model: 'vllm:j',
        calls: 4,
        pass: 1,
        fail: 0,
        notApplicable: 0,
        error: 3,
        topErrors: [{ message: 'JudgeParseError: no JSON', count: 3 }],
      },
    ];
    summary.supersededUsage = { agent: { calls: 1, inputTokens: 5, outputTokens: 2, costUsd: 0.5, cachedCalls: 0 } };
    const report = buildReport({ runs: [{ header, summary }] });
    const markdown = renderMarkdown(report);
    expect(markdown).toContain('- extra: all 2 verdicts were not-applicable: &lt;b&gt;filtered&lt;/b&gt; out');
    expect(markdown).toContain('## Errors');
    expect(markdown).toContain(
      '| 20261130-000000-confaide-abc123 | sample | ProviderError | connection refused http://127.0.0.1:8000/v1 | 1 | a |',
    );
    expect(markdown).toContain(
      '| 20261130-000000-confaide-abc123 | judge leak@1 | JudgeParseError | JudgeParseError: no JSON | 3 | b |',
    );
    expect(markdown).toContain('1 errored samples, 1 samples with a judge error (3 failed judge calls)');
    expect(markdown).toContain(
      '| 20261130-000000-confaide-abc123 | leak@1 | vllm:j | 4 | 1 | 0 | 0 | 3 | JudgeParseError: no JSON ×3 |',
    );
    expect(markdown).toMatch(/\| agent \| 2 \| 1 \| 10 \| 4 \| unknown \| 1 \/ 0\.5000 \|/);
    const csv = renderCsv(report);
    expect(csv).toContain(',extra,,0,0,2,all 2 verdicts were not-applicable: <b>filtered</b> out,,,');
    expect(csv).toContain(',error_cause,1,,,,connection refused http://127.0.0.1:8000/v1 (e.g. a)');
    expect(csv).toContain(
      ',judge_health,3,4,3,0,"leak@1 on vllm:j: 1 pass, 0 fail; most common error: JudgeParseError: no JSON"',
    );
    const json = JSON.parse(renderJson(report)) as { runs: Array<{ errorCauses: unknown[]; judges: unknown[] }> };
    expect(json.runs[0]?.errorCauses).toHaveLength(2);
    expect(json.runs[0]?.judges).toHaveLength(1);
  });

  it('renders CSV rows with empty value for null and JSON that round-trips', () => {
    const report = buildReport({ runs: [fixture()] });
    const csv = renderCsv(report).trim().split('\n');
    expect(csv[0]).toBe('run_id,suite,metric,value,n,errors,not_applicable,reason,ci95_low,ci95_high,ci_method');
    expect(csv).toContain('20261130-000000-confaide-abc123,confaide,extra,,0,0,2,,,,');
    expect(JSON.parse(renderJson(report)).rows).toHaveLength(2);
  });

  it('shows each 95% interval in Markdown (its own column, and beside headline values) and CSV', () => {
    const run = fixture();
    run.summary.metrics.fr_e = {
      value: 0.5,
      n: 10,
      errors: 0,
      notApplicable: 0,
      ci95: [0.2366, 0.7634],
      ciMethod: 'wilson',
    };
    const other = fixture();
    other.header.runId = 'second';
    const report = buildReport({ runs: [run, other], definitions: FR_E, headline: ['fr_e'] });
    const markdown = renderMarkdown(report);
    expect(markdown).toContain('| Metric | Value (mock:echo) | 95% CI (mock:echo) | Worst (mock:echo) |');
    expect(markdown).toContain('| FR-E (%) | 50.0 | 23.7–76.3 | 100.0 | — | 10 / 0 / 0 | 50.0 | — | 100.0 |');
    expect(markdown).toContain('| mock:echo | 50.0 (23.7–76.3) | 2 | unknown |');
    expect(markdown).toContain('95% CI: Wilson score interval');
    expect(renderCsv(report)).toContain(
      '20261130-000000-confaide-abc123,confaide,fr_e,0.5,10,0,0,,0.2366,0.7634,wilson',
    );
  });

  it('prints a value that is a convention (n = 0) with its sentence in Markdown and in the CSV reason', () => {
    const run = fixture();
    run.summary.metrics.extra = {
      value: 1,
      n: 0,
      errors: 0,
      notApplicable: 0,
      convention: 'upstream convention: 1.0 over nothing',
    };
    const report = buildReport({ runs: [run] });
    const markdown = renderMarkdown(report);
    expect(markdown).toContain(
      'Values that are conventions, not measurements:\n\n- extra: upstream convention: 1.0 over nothing',
    );
    expect(markdown).not.toContain('Why some values are n/a');
    expect(renderCsv(report)).toContain(
      '20261130-000000-confaide-abc123,confaide,extra,1,0,0,0,upstream convention: 1.0 over nothing,,,',
    );
  });
});
