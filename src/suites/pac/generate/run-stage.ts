import type { PacGenerationContext, PacStageOutcome } from './generation-context.js';
import { formatPacRuleIssue, type PacGenerationStage, type PacRuleIssue } from './pac-rule-issue.js';
import type { StructuredReply } from './structured-reply.js';

/**
 * Runs one stage of one unit (for one agent, in per-agent stages) until its output passes the
 * rule checks: each attempt asks the model (with the previous attempt's broken rules as
 * feedback), checks the parsed reply and, on success, appends it to the journal before
 * returning it. A reply that never parses counts as a failed attempt. After `maxAttempts`
 * attempts the outcome carries the last attempt's reasons. Attempts are numbered from
 * `firstAttempt` (a resumed unit whose earlier session ran out of attempts continues counting).
 */
export async function runStage<T>({
  context,
  unit,
  stage,
  agent,
  firstAttempt = 1,
  feedback: initialFeedback,
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
  let reasons: string[] = initialFeedback ?? [];
  let feedback: string[] | undefined = initialFeedback;
  for (let attempt = firstAttempt; attempt <= context.options.maxAttempts; attempt += 1) {
    context.signal.throwIfAborted();
    const reply = await ask({ attempt, feedback });
    if (reply.ok) {
      const issues = check(reply.value);
      if (issues.length === 0) {
        await context.journal.append({
          kind: 'stage',
          unit,
          stage,
          ...who,
          attempt,
          output: journalValue === undefined ? reply.value : journalValue(reply.value),
        });
        context.emit({ type: 'stage-accepted', unit, stage, ...who, attempt });
        return { ok: true, value: reply.value };
      }
      reasons = issues.map(formatPacRuleIssue);
    } else {
      reasons = [reply.problem];
    }
    feedback = reasons;
    context.emit({ type: 'stage-failed', unit, stage, ...who, attempt, reasons });
  }
  return { ok: false, reasons, attempts: Math.max(context.options.maxAttempts, firstAttempt - 1) };
}
