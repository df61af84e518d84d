import { runCheckedStage, type StructuredReply } from '../../../generation/index.js';
import type { PacGenerationContext, PacStageOutcome } from './generation-context.js';
import { formatPacRuleIssue, type PacGenerationStage, type PacRuleIssue } from './pac-rule-issue.js';

/**
 * Runs one stage of one unit (for one agent, in per-agent stages) as a one-item checked stage
 * (`runCheckedStage`) until its output passes the rule checks: each attempt asks the model (with
 * the previous attempt's broken rules as feedback), checks the parsed reply and, on success,
 * appends it to the journal before returning it. A reply that never parses counts as a failed
 * attempt. After `maxAttempts` attempts the outcome carries the last attempt's reasons. Attempts
 * are numbered from `firstAttempt` (a resumed unit whose earlier session ran out of attempts
 * continues counting).
 */
export async function runStage<T>({
  context,
  unit,
  stage,
  agent,
  firstAttempt = 1,
  feedback,
  ask,
  check,
  journalValue,
}: {
  context: PacGenerationContext;
  unit: string;
  stage: PacGenerationStage;
  agent?: string;
  firstAttempt?: number;
  /** Broken rules to show on the first attempt (those of a previous session's last attempt). */
  feedback?: string[];
  ask(options: { attempt: number; feedback: string[] | undefined }): Promise<StructuredReply<T>>;
  check(value: T): PacRuleIssue[];
  /** What the journal keeps of an accepted value (default: the value itself). */
  journalValue?: (value: T) => unknown;
}): Promise<PacStageOutcome<T>> {
  const who = agent === undefined ? {} : { agent };
  const spent = firstAttempt > 1 || feedback !== undefined;
  const outcomes = await runCheckedStage<T>({
    items: [{ key: unit, ...(spent ? { spent: { attempts: firstAttempt - 1, problems: feedback ?? [] } } : {}) }],
    maxAttempts: context.options.maxAttempts,
    generate: async ({ attempt, feedback: given }) => {
      context.signal.throwIfAborted();
      const reply = await ask({ attempt, feedback: given?.problems });
      return reply.ok ? { ok: true, value: reply.value } : { ok: false, problems: [reply.problem] };
    },
    check: (answers) =>
      new Map([...answers].map(([key, value]) => [key, check(value).map(formatPacRuleIssue)] as const)),
    onRejected: ({ attempt, problems }) =>
      context.emit({ type: 'stage-failed', unit, stage, ...who, attempt, reasons: problems }),
    onAccepted: async ({ attempt, value }) => {
      const output = journalValue === undefined ? value : journalValue(value);
      await context.journal.append({ kind: 'stage', unit, stage, ...who, attempt, output });
      context.emit({ type: 'stage-accepted', unit, stage, ...who, attempt });
    },
  });
  const outcome = outcomes.get(unit);
  if (outcome === undefined) throw new Error(`stage ${stage} of ${unit} has no outcome`);
  return outcome.ok
    ? { ok: true, value: outcome.value }
    : { ok: false, reasons: outcome.problems, attempts: outcome.attempts };
}
