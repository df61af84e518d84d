import { checkScenarioPart } from './check-task-parts.js';
import type { PacGenerationUnit } from './generate-options.js';
import { attemptOrdinal, type PacGenerationContext, type PacStageOutcome } from './generation-context.js';
import type { PacUnitRecord } from './generation-journal.js';
import { agentKey, scenarioPrompt } from './generation-prompts.js';
import { formatPacRuleIssue, type PacRuleIssue } from './pac-rule-issue.js';
import { runStage } from './run-stage.js';
import { type PacScenarioDraft, pacScenarioBatchSchema } from './stage-schemas.js';

/**
 * Scenario-stage rules for one draft (see `checkScenarioPart`), plus distinctness within its
 * domain: a draft may not repeat the goal, description or collaboration structure of a scenario
 * already accepted for the same domain and policy type.
 */
export function checkScenarioDraft({
  draft,
  accepted,
  agentCount,
}: {
  draft: PacScenarioDraft;
  accepted: readonly PacScenarioDraft[];
  agentCount: number;
}): PacRuleIssue[] {
  const issues = checkScenarioPart(
    {
      description: draft.description,
      goal: draft.goal,
      profiles: draft.agents.map((agent, index) => ({ agent: agentKey(index), ...agent })),
    },
    { agentCount },
  );
  const same = (left: string, right: string) => left.trim().toLowerCase() === right.trim().toLowerCase();
  const fields = [
    ['scenario.goal.content', 'goal', (other: PacScenarioDraft) => same(other.goal, draft.goal)],
    ['scenario.description', 'description', (other: PacScenarioDraft) => same(other.description, draft.description)],
    [
      'scenario',
      'collaboration structure',
      (other: PacScenarioDraft) => same(other.collaboration_structure, draft.collaboration_structure),
    ],
  ] as const;
  for (const [path, name, matches] of fields) {
    if (accepted.some(matches)) {
      issues.push({
        path,
        rule: 'scenario-duplicate',
        message: `repeats the ${name} of another scenario of this domain; use a different collaboration`,
        stage: 'scenario',
      });
    }
  }
  return issues;
}

/**
 * Stage 1 for the units of one (policy type, domain) group that still lack a scenario. The first
 * attempt asks for them in batches of `batchSize` (one call per batch, batches in order, each
 * told the scenarios accepted so far so they differ); a unit whose draft fails the rules, or that
 * the batch left out, is then regenerated alone with its broken rules as feedback, up to
 * `maxAttempts` attempts in all. Units a previous session gave up at this stage continue their
 * attempt count alone. Accepted drafts are journaled; units that run out of attempts are
 * journaled as rejected. `existing` are the group's drafts accepted in earlier sessions.
 */
export async function runScenarioStage({
  context,
  units,
  records,
  existing,
}: {
  context: PacGenerationContext;
  units: readonly PacGenerationUnit[];
  records: ReadonlyMap<string, PacUnitRecord>;
  existing: readonly PacScenarioDraft[];
}): Promise<Map<string, PacStageOutcome<PacScenarioDraft>>> {
  const { options } = context;
  const accepted = [...existing];
  const outcomes = new Map<string, PacStageOutcome<PacScenarioDraft>>();
  const pending = new Map<string, { firstAttempt: number; feedback?: string[] }>();
  const fresh = units.filter((unit) => records.get(unit.id)?.rejected === undefined);
  for (const unit of units) {
    const rejected = records.get(unit.id)?.rejected;
    if (rejected !== undefined)
      pending.set(unit.id, { firstAttempt: rejected.attempts + 1, feedback: rejected.reasons });
  }

  for (let start = 0; start < fresh.length; start += options.batchSize) {
    context.signal.throwIfAborted();
    const chunk = fresh.slice(start, start + options.batchSize);
    const first = chunk[0];
    if (first === undefined) break;
    const reply = await context.ask({
      messages: scenarioPrompt({
        domain: first.domainName,
        count: chunk.length,
        agentCount: options.agents,
        policyType: first.policyType,
        existing: accepted,
      }),
      schema: pacScenarioBatchSchema,
      schemaName: 'pac_scenarios',
      ordinalBase: attemptOrdinal(1, first.policy * 1000),
    });
    for (const [position, unit] of chunk.entries()) {
      const draft = reply.ok ? reply.value.scenarios[position] : undefined;
      let reasons: string[];
      if (!reply.ok) {
        reasons = [reply.problem];
      } else if (draft === undefined) {
        reasons = [`the batch returned ${reply.value.scenarios.length} scenarios for ${chunk.length} requested`];
      } else {
        reasons = checkScenarioDraft({ draft, accepted, agentCount: options.agents }).map(formatPacRuleIssue);
      }
      if (draft !== undefined && reasons.length === 0) {
        await context.journal.append({ kind: 'stage', unit: unit.id, stage: 'scenario', attempt: 1, output: draft });
        context.emit({ type: 'stage-accepted', unit: unit.id, stage: 'scenario', attempt: 1 });
        accepted.push(draft);
        outcomes.set(unit.id, { ok: true, value: draft });
      } else {
        context.emit({ type: 'stage-failed', unit: unit.id, stage: 'scenario', attempt: 1, reasons });
        pending.set(unit.id, { firstAttempt: 2, feedback: reasons });
      }
    }
  }

  for (const unit of units) {
    const retry = pending.get(unit.id);
    if (retry === undefined) continue;
    const outcome = await runStage({
      context,
      unit: unit.id,
      stage: 'scenario',
      firstAttempt: retry.firstAttempt,
      ...(retry.feedback === undefined ? {} : { feedback: retry.feedback }),
      ask: ({ attempt, feedback }) =>
        context.ask({
          messages: scenarioPrompt({
            domain: unit.domainName,
            count: 1,
            agentCount: options.agents,
            policyType: unit.policyType,
            existing: accepted,
            ...(feedback === undefined ? {} : { feedback }),
          }),
          schema: pacScenarioBatchSchema,
          schemaName: 'pac_scenarios',
          ordinalBase: attemptOrdinal(attempt, unit.policy * 1000),
        }),
      check: (value) => {
        const draft = value.scenarios[0];
        return draft === undefined ? [] : checkScenarioDraft({ draft, accepted, agentCount: options.agents });
      },
      journalValue: (value) => value.scenarios[0],
    });
    if (outcome.ok) {
      const draft = outcome.value.scenarios[0];
      if (draft === undefined) throw new Error('a parsed scenario batch is never empty');
      accepted.push(draft);
      outcomes.set(unit.id, { ok: true, value: draft });
    } else {
      await context.journal.append({
        kind: 'rejected',
        unit: unit.id,
        stage: 'scenario',
        attempts: outcome.attempts,
        reasons: outcome.reasons,
      });
      context.emit({ type: 'unit-rejected', unit: unit.id, stage: 'scenario', reasons: outcome.reasons });
      outcomes.set(unit.id, outcome);
    }
  }
  return outcomes;
}
