import type { PacOutcomeCheck, PacOutcomeCheckKind } from '../outcome-check-schema.js';
import type { PacOutput } from '../pac-output.js';
import type { PacScenario } from '../scenario-schema.js';
import { artifactFiles } from './artifact-files.js';
import { checkResult, type DeliverableInput, type OutcomeCheckResult } from './check-deliverable.js';
import { runJsonCheck } from './json-check.js';
import { runNumberCheck } from './number-check.js';
import { runScheduleCheck } from './schedule-check.js';

type Runner<K extends PacOutcomeCheckKind> = (
  input: DeliverableInput & { check: Extract<PacOutcomeCheck, { kind: K }> },
) => OutcomeCheckResult;

/** The runner of each check kind. */
const RUNNERS: { [K in PacOutcomeCheckKind]: Runner<K> } = {
  json: runJsonCheck,
  number: runNumberCheck,
  schedule: runScheduleCheck,
};

/**
 * Runs the scenario's outcome checks (`checks.outcome`, outcome-check-schema.ts) on the final
 * shared folder and the transcript of one episode, in declaration order, without a model. A
 * scenario without checks gives an empty list. A check that throws is an `error` result naming
 * the cause, never a pass or a fail.
 */
export function judgeOutcomeChecks({
  scenario,
  output,
}: {
  scenario: PacScenario;
  output: PacOutput;
}): OutcomeCheckResult[] {
  const checks = scenario.checks?.outcome ?? [];
  if (checks.length === 0) return [];
  const input: DeliverableInput = { files: artifactFiles(output.finalArtifact), messages: output.messages };
  return checks.map((check) => {
    const runner = RUNNERS[check.kind] as Runner<PacOutcomeCheckKind>;
    try {
      return runner({ ...input, check: check as Extract<PacOutcomeCheck, { kind: PacOutcomeCheckKind }> });
    } catch (cause) {
      return checkResult(check, 'error', `the check could not run: ${(cause as Error).message}`);
    }
  });
}
