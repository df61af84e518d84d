import type { FailFastStop } from '../runner/fail-fast.js';
import { causeCountLabel } from '../runner/failure-tally.js';
import { judgeHealthLine } from '../runner/judge-health.js';
import type { RunStopReason } from '../runner/run-evaluation.js';
import { failedSampleCount, type RunSummary } from '../spec/run-record.js';
import { EXIT } from './cli-io.js';
import { resumeCommand } from './run-lock-session.js';

/** Causes listed in the end-of-run summary; the rest are summed as `+k more`. */
const CAUSES_LISTED = 3;

const percent = (share: number) => `${Math.round(share * 1000) / 10}%`;

/** What a finished `run`/`resume` prints on stderr and the exit code it returns. */
export type RunOutcome = { lines: string[]; exitCode: number };

/**
 * Turns the end of a run into the lines a person reads in the morning and the exit code:
 * the sample counts, the errors by cause and the judge health; then one sentence saying what
 * happened and how to continue. Exit 3 when the run stopped early (budget, Ctrl-C, fail-fast;
 * resumable), 4 when more than `maxErrorRate` of its samples failed (an errored sample, a failed
 * judge call or a score in `error`) or, with `failOnError`, when any did; below the threshold, 0 with one warning line.
 */
export function runOutcome({
  summary,
  stopped,
  failFast,
  location,
  maxErrorRate,
  failOnError,
}: {
  summary: RunSummary;
  stopped: RunStopReason | undefined;
  failFast: FailFastStop | undefined;
  location: string;
  maxErrorRate: number;
  failOnError: boolean;
}): RunOutcome {
  const { counts } = summary;
  const lines = [
    `samples: ${counts.success} ok, ${counts.error} errored, ${counts.missing} missing of ${counts.planned}`,
  ];
  const failures = summary.failures;
  const causes = summary.errorCauses ?? [];
  if (causes.length > 0 && failures !== undefined) {
    const listed = causes.slice(0, CAUSES_LISTED).map(causeCountLabel);
    const rest = causes.length - listed.length;
    lines.push(
      `errors ${failures.errored + failures.judgeErrors + (failures.scoreErrored ?? 0)}: ${listed.join('; ')}${rest > 0 ? `; +${rest} more (see summary.json)` : ''}`,
    );
  }
  const health = judgeHealthLine(summary.judges ?? []);
  if (health !== undefined) lines.push(health);

  const failed = failures === undefined ? counts.error : failedSampleCount(failures);
  const scoreErrored = failures?.scoreErrored ?? 0;
  const finished = counts.success + counts.error;
  const retry = `${resumeCommand(location)} --retry-errors`;
  if (stopped === 'fail-fast' && failFast !== undefined) {
    lines.push(`run stopped early: ${failFast.message}. Fix the cause, then continue with: ${retry}`);
    return { lines, exitCode: EXIT.stoppedEarly };
  }
  if (stopped !== undefined) {
    const why = stopped === 'budget' ? 'the budget (--max-cost / --max-tokens) was reached' : 'it was interrupted';
    const resume = `${resumeCommand(location)}${failed > 0 ? ' (add --retry-errors to redo the failed samples)' : ''}`;
    lines.push(`run stopped early because ${why}; continue with: ${resume}`);
    return { lines, exitCode: EXIT.stoppedEarly };
  }
  if (failed === 0) return { lines, exitCode: EXIT.ok };
  const rate = finished === 0 ? 1 : failed / finished;
  const top = causes[0];
  const what = `${failed} of ${finished} samples failed (${percent(rate)}: ${counts.error} errored, ${failed - counts.error - scoreErrored} with a judge error${scoreErrored > 0 ? `, ${scoreErrored} a scorer could not score` : ''})${top === undefined ? '' : `; most common cause: ${causeCountLabel(top)}`}`;
  if (rate > maxErrorRate) {
    lines.push(
      `run failed: ${what}, over --max-error-rate ${percent(maxErrorRate)}. Fix the cause, then redo them with: ${retry}`,
    );
    return { lines, exitCode: EXIT.finishedWithErrors };
  }
  lines.push(`warning: ${what}, within --max-error-rate ${percent(maxErrorRate)}; redo them with: ${retry}`);
  return { lines, exitCode: failOnError ? EXIT.finishedWithErrors : EXIT.ok };
}
