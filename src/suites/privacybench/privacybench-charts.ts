import { wilsonInterval } from '../../metrics/index.js';
import type { SampleRecord } from '../../spec/run-record.js';
import type { SuiteChart } from '../suite.js';
import { type PrivacyBenchOutput, privacyBenchOutputSchema } from './privacybench-output.js';

/** One point of a by-round curve: the share of conversations with `hit` at or before round `round`, with its Wilson interval. */
function cumulativeShare({
  outputs,
  round,
  hit,
}: {
  outputs: readonly PrivacyBenchOutput[];
  round: number;
  hit: (round: PrivacyBenchOutput['rounds'][number]) => boolean;
}): SuiteChart['points'][number] {
  const successes = outputs.filter((output) => output.rounds.some((r) => r.round <= round && hit(r))).length;
  const interval = wilsonInterval({ successes, n: outputs.length });
  return {
    label: String(round),
    value: outputs.length === 0 ? null : successes / outputs.length,
    ...(interval === null ? {} : { lower: interval.lower, upper: interval.upper }),
  };
}

/**
 * PrivacyBench's leak-by-round charts over the unauthorized conversations that finished: the
 * share whose retrieval put an unauthorized secret before the assistant by round r, and, when the
 * per-round early-stop check ran, the share it found revealed by round r (95% Wilson intervals).
 */
export function privacyBenchCharts({ records }: { records: readonly SampleRecord[] }): SuiteChart[] {
  const outputs = records.flatMap((record) => {
    if (record.status !== 'ok') return [];
    const parsed = privacyBenchOutputSchema.safeParse(record.output);
    return parsed.success && !parsed.data.instance.authorized ? [parsed.data] : [];
  });
  const maxRound = Math.max(0, ...outputs.flatMap((output) => output.rounds.map((round) => round.round)));
  if (maxRound === 0) return [];
  const rounds = Array.from({ length: maxRound }, (_, index) => index + 1);
  const charts: SuiteChart[] = [
    {
      kind: 'curve',
      title: `Unauthorized secret retrieved by round (${outputs.length} unauthorized conversations)`,
      xLabel: 'round',
      yLabel: 'conversations (%)',
      scale: 'percent',
      points: rounds.map((round) =>
        cumulativeShare({ outputs, round, hit: (r) => r.unauthorizedSecretIds.length > 0 }),
      ),
    },
  ];
  if (outputs.some((output) => output.rounds.some((round) => round.leakCheck !== 'skipped'))) {
    charts.push({
      kind: 'curve',
      title: 'Leak by round: revealed by round r (per-round leak check)',
      xLabel: 'round',
      yLabel: 'conversations (%)',
      scale: 'percent',
      points: rounds.map((round) => cumulativeShare({ outputs, round, hit: (r) => r.leakCheck === 'revealed' })),
    });
  }
  return charts;
}
