import { indexMetricDefinitions, type MetricDefinition } from '../spec/metric-definition.js';
import { formatInterval, formatMetric } from './build-report.js';
import type { RunComparison } from './compare-runs.js';
import { escapeMarkdownCell } from './render-markdown.js';

/** How many flipped samples the Markdown lists per comparison (JSON lists them all). */
export const FLIPPED_SHOWN = 50;

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.map(escapeMarkdownCell).join(' | ')} |`;
  return [line(header), `|${header.map(() => '---').join('|')}|`, ...rows.map(line)].join('\n');
}

const points = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}`;
const pValue = (p: number) => (p < 0.001 ? '<0.001' : p.toFixed(3));

/**
 * Renders comparisons as Markdown: per pair of runs the summary metrics side by side with their
 * intervals and the difference, the paired tests per score (fail rates, the bootstrap interval
 * of the difference, exact McNemar, agreement and Cohen's kappa), and the flipped samples.
 */
export function renderCompareMarkdown({
  comparisons,
  definitions = [],
}: {
  comparisons: readonly RunComparison[];
  definitions?: readonly MetricDefinition[];
}): string {
  const display = indexMetricDefinitions(definitions);
  const out: string[] = ['# confidant compare', ''];
  for (const comparison of comparisons) {
    const { a, b } = comparison;
    out.push(`## ${b.runId} vs ${a.runId}`, '');
    out.push(
      `${comparison.shared} samples in both runs${comparison.onlyInA + comparison.onlyInB > 0 ? ` (left out: ${comparison.onlyInA} only in ${a.runId}, ${comparison.onlyInB} only in ${b.runId})` : ''}.`,
      '',
    );
    out.push(
      table(
        ['Metric', 'A', 'A 95% CI', 'B', 'B 95% CI', 'B − A'],
        comparison.metrics.map((metric) => {
          const definition = display[metric.id];
          const scale = definition?.scale ?? 'raw';
          const label =
            definition === undefined ? metric.id : scale === 'percent' ? `${definition.label} (%)` : definition.label;
          const difference =
            metric.difference === null
              ? '—'
              : scale === 'percent'
                ? points(metric.difference)
                : `${metric.difference >= 0 ? '+' : ''}${metric.difference.toFixed(3)}`;
          return [
            label,
            formatMetric(metric.a, scale),
            formatInterval(metric.a, scale) || '—',
            formatMetric(metric.b, scale),
            formatInterval(metric.b, scale) || '—',
            difference,
          ];
        }),
      ),
      '',
    );
    if (comparison.scores.length > 0) {
      out.push('### Paired tests per score (fail = the bad outcome, e.g. a leak)', '');
      out.push(
        table(
          [
            'Score',
            'Pairs',
            'Fail A (%)',
            'Fail B (%)',
            'B − A (pts)',
            '95% CI',
            'McNemar b / c',
            'p (exact)',
            'Agreement (%)',
            "Cohen's κ",
          ],
          comparison.scores.map((score) => [
            score.key,
            String(score.pairs),
            (score.failRateA * 100).toFixed(1),
            (score.failRateB * 100).toFixed(1),
            points(score.failRateB - score.failRateA),
            score.ci95 === null
              ? '—'
              : `${points(score.ci95.lower)} to ${points(score.ci95.upper)}${score.ciMethod === 'newcombe' ? ' (Newcombe)' : ''}`,
            `${score.mcnemar.b} / ${score.mcnemar.c}`,
            pValue(score.mcnemar.pValue),
            score.agreement.percent === null ? '—' : (score.agreement.percent * 100).toFixed(1),
            score.agreement.kappa === null ? 'n/a' : score.agreement.kappa.toFixed(3),
          ]),
        ),
        '',
        'b = samples failing only in A, c = failing only in B. 95% CI: paired bootstrap over whole scenarios (2,000 resamples, seeded); when every scenario gave the same difference (the bootstrap collapses to one point), Newcombe’s paired score interval with each scenario counted as one unit, marked (Newcombe). Agreement and κ compare all four verdicts over the samples both runs scored.',
        '',
      );
    }
    if (comparison.rescore !== undefined) {
      out.push(
        `${b.runId} re-scored the outputs of ${a.runId} (changed: ${comparison.rescore.changed.join(', ') || 'nothing'}); its differences are the scoring's alone.`,
        '',
      );
    }
    if (comparison.judges.length > 0) {
      out.push('### Judge agreement (call by call on the shared samples)', '');
      out.push(
        table(
          ['Judge', 'Model A', 'Model B', 'Calls', 'Agreement (%)', "Cohen's κ"],
          comparison.judges.map((judge) => [
            judge.judge,
            judge.modelA,
            judge.modelB,
            String(judge.agreement.n),
            judge.agreement.percent === null ? '—' : (judge.agreement.percent * 100).toFixed(1),
            judge.agreement.kappa === null ? 'n/a' : judge.agreement.kappa.toFixed(3),
          ]),
        ),
        '',
      );
    }
    out.push(`### Flipped samples (${comparison.flipped.length})`, '');
    if (comparison.flipped.length === 0) out.push('No sample changed between pass and fail.', '');
    else {
      out.push(
        table(
          ['Sample', 'Scenario', 'Score', 'A', 'B'],
          comparison.flipped
            .slice(0, FLIPPED_SHOWN)
            .map((flip) => [flip.sampleId, flip.scenarioId, flip.key, flip.a, flip.b]),
        ),
        '',
      );
      if (comparison.flipped.length > FLIPPED_SHOWN) {
        out.push(`…and ${comparison.flipped.length - FLIPPED_SHOWN} more (all are in --format json).`, '');
      }
    }
  }
  return out.join('\n');
}
