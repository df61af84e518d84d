import { buildReport } from '../reports/build-report.js';
import { renderMarkdown } from '../reports/render-markdown.js';
import type { EvaluateResult } from '../runner/evaluate.js';
import type { RunProgress } from '../runner/run-evaluation.js';
import type { CliIo } from './cli-io.js';
import { applyHeapPolicy } from './heap-policy.js';
import { createProgressView } from './progress.js';
import { runOutcome } from './run-outcome.js';

/**
 * Runs (or resumes) a run through `evaluate` with a progress view from the first second, and
 * prints a short report, the errors by cause, the judge health and one sentence on what
 * happened, then the run directory as the last stdout line. Returns the exit code (see
 * `runOutcome`): 3 when the run stopped early (budget, Ctrl-C or fail-fast) and can be resumed,
 * 4 when more than `--max-error-rate` of the samples failed (or any did, under
 * `--fail-on-error`), else 0.
 */
export async function executeRun({
  io,
  run,
  failOnError = false,
}: {
  io: CliIo;
  /** Calls `evaluatePlan` or `resume` with this progress callback. */
  run: (onProgress: (progress: RunProgress) => void) => Promise<EvaluateResult>;
  failOnError?: boolean;
}): Promise<number> {
  applyHeapPolicy({ execArgv: process.execArgv });
  const progress = createProgressView({ isTTY: io.isTTY, write: io.stderr });
  try {
    const result = await run((snapshot) => progress.update(snapshot));
    progress.stop();
    const report = buildReport({
      runs: [{ header: result.header, summary: result.summary }],
      definitions: result.suite.metrics.definitions,
    });
    io.stdout(`${renderMarkdown(report).split('\n## Runs')[0]?.trimEnd()}\n\n`);
    const outcome = runOutcome({
      summary: result.summary,
      stopped: result.stopped,
      failFast: result.failFast,
      location: result.store.location,
      // The plan as it ran: a resume's overrides are in the header.
      maxErrorRate: result.header.plan.maxErrorRate,
      failOnError,
    });
    for (const line of outcome.lines) io.stderr(`${line}\n`);
    io.stdout(`${result.store.location}\n`);
    return outcome.exitCode;
  } finally {
    progress.stop();
  }
}
