import { join } from 'node:path';
import { writeFileAtomic } from '../../../generation/index.js';
import { normalizePacScenario, pacScenarioFileSchema } from '../scenario-schema.js';
import { assemblePacScenarioFile } from './assemble-scenario-file.js';
import { checkAgentMemories, checkAgentPolicies } from './check-agent-parts.js';
import { checkPacScenario } from './check-pac-scenario.js';
import { checkRequirementsPart } from './check-task-parts.js';
import type { PacGenerationUnit } from './generate-options.js';
import { attemptOrdinal, type PacGenerationContext } from './generation-context.js';
import type { PacUnitRecord } from './generation-journal.js';
import { agentKey, constraintPrompt, memoryPrompt, requirementsPrompt } from './generation-prompts.js';
import { formatPacRuleIssue, type PacGenerationStage } from './pac-rule-issue.js';
import { runStage } from './run-stage.js';
import {
  type PacGeneratedConstraint,
  type PacGeneratedMemory,
  pacConstraintReplySchema,
  pacMemoryReplySchema,
  pacRequirementsReplySchema,
} from './stage-schemas.js';

/** How a unit ended: its file written, or given up at one stage (and agent) with the reasons. */
export type PacUnitOutcome =
  | { status: 'written'; file: string }
  | { status: 'rejected'; stage: PacGenerationStage; agent?: string; reasons: string[] };

/**
 * Runs stages 2–4 of one unit whose scenario is accepted, taking every stage output the journal
 * already holds and generating only what is missing: requirements, then each agent's memories,
 * then each agent's constraint. A failing stage regenerates only itself (for its agent). When all
 * stages pass, the assembled file goes through {@link checkPacScenario} and the suite's own
 * schema and normaliser as a final gate, is written atomically to `<outDir>/<unit.file>`, and a
 * `done` line is journaled. A stage that runs out of attempts rejects the unit (journaled too).
 */
export async function runUnit({
  context,
  unit,
  record,
}: {
  context: PacGenerationContext;
  unit: PacGenerationUnit;
  record: PacUnitRecord;
}): Promise<PacUnitOutcome> {
  const { options } = context;
  const scenario = record.scenario;
  if (scenario === undefined) throw new Error(`unit ${unit.id} has no accepted scenario`);
  /** Where a stage starts: after the attempts of the session that gave it up, with its reasons as feedback. */
  const retry = (stage: PacGenerationStage, agent?: string): { firstAttempt: number; feedback?: string[] } =>
    record.rejected !== undefined && record.rejected.stage === stage && record.rejected.agent === agent
      ? { firstAttempt: record.rejected.attempts + 1, feedback: record.rejected.reasons }
      : { firstAttempt: 1 };
  const reject = async (stage: PacGenerationStage, reasons: string[], attempts: number, agent?: string) => {
    const who = agent === undefined ? {} : { agent };
    await context.journal.append({ kind: 'rejected', unit: unit.id, stage, ...who, attempts, reasons });
    context.emit({ type: 'unit-rejected', unit: unit.id, stage, ...who, reasons });
    return { status: 'rejected' as const, stage, ...who, reasons };
  };

  let requirements = record.requirements;
  if (requirements === undefined) {
    const outcome = await runStage({
      context,
      unit: unit.id,
      stage: 'requirements',
      ...retry('requirements'),
      ask: ({ attempt, feedback }) =>
        context.ask({
          messages: requirementsPrompt({
            domain: unit.domainName,
            scenario,
            count: options.requirementCount,
            ...(feedback === undefined ? {} : { feedback }),
          }),
          schema: pacRequirementsReplySchema,
          schemaName: 'pac_requirements',
          ordinalBase: attemptOrdinal(attempt),
        }),
      check: (value) => checkRequirementsPart(value.requirements, { requirementCount: options.requirementCount }),
      journalValue: (value) => value.requirements,
    });
    if (!outcome.ok) return reject('requirements', outcome.reasons, outcome.attempts);
    requirements = outcome.value.requirements;
  }
  const accepted = requirements;

  const memories: PacGeneratedMemory[][] = [];
  for (let index = 0; index < scenario.agents.length; index += 1) {
    const key = agentKey(index);
    const known = record.memory.get(key);
    if (known !== undefined) {
      memories.push(known);
      continue;
    }
    const outcome = await runStage({
      context,
      unit: unit.id,
      stage: 'memory',
      agent: key,
      ...retry('memory', key),
      ask: ({ attempt, feedback }) =>
        context.ask({
          messages: memoryPrompt({
            domain: unit.domainName,
            scenario,
            requirements: accepted,
            agentIndex: index,
            earlierMemories: memories,
            ...(feedback === undefined ? {} : { feedback }),
          }),
          schema: pacMemoryReplySchema,
          schemaName: 'pac_memory',
          ordinalBase: attemptOrdinal(attempt),
        }),
      check: (value) => checkAgentMemories({ agent: key, memories: value.memory, requirementCount: accepted.length }),
      journalValue: (value) => value.memory,
    });
    if (!outcome.ok) return reject('memory', outcome.reasons, outcome.attempts, key);
    memories.push(outcome.value.memory);
  }

  const constraints: PacGeneratedConstraint[][] = [];
  for (let index = 0; index < scenario.agents.length; index += 1) {
    const key = agentKey(index);
    const own = memories[index] ?? [];
    const known = record.constraint.get(key);
    if (known !== undefined) {
      constraints.push(known);
      continue;
    }
    const outcome = await runStage({
      context,
      unit: unit.id,
      stage: 'constraint',
      agent: key,
      ...retry('constraint', key),
      ask: ({ attempt, feedback }) =>
        context.ask({
          messages: constraintPrompt({
            domain: unit.domainName,
            scenario,
            requirements: accepted,
            agentIndex: index,
            memories: own,
            policyType: unit.policyType,
            ...(feedback === undefined ? {} : { feedback }),
          }),
          schema: pacConstraintReplySchema,
          schemaName: 'pac_constraint',
          ordinalBase: attemptOrdinal(attempt),
        }),
      check: (value) =>
        checkAgentPolicies({
          agent: key,
          memories: own,
          policies: value.privacy_constraint,
          task: { goal: scenario.goal, requirements: accepted },
          policyType: unit.policyType,
        }),
      journalValue: (value) => value.privacy_constraint,
    });
    if (!outcome.ok) return reject('constraint', outcome.reasons, outcome.attempts, key);
    constraints.push(outcome.value.privacy_constraint);
  }

  const file = assemblePacScenarioFile({ scenario, requirements: accepted, memories, constraints });
  const final = checkPacScenario(file, {
    requirementCount: options.requirementCount,
    agentCount: options.agents,
    policyType: unit.policyType,
  });
  const first = final[0];
  if (first !== undefined) {
    return reject(first.stage, final.map(formatPacRuleIssue), options.maxAttempts, first.agent);
  }
  const loadable = loadProblem(file, unit);
  if (loadable !== undefined) return reject('scenario', [loadable], options.maxAttempts);
  await writeFileAtomic(join(options.outDir, unit.file), `${JSON.stringify(file, null, 2)}\n`);
  await context.journal.append({ kind: 'done', unit: unit.id, file: unit.file });
  context.emit({ type: 'unit-written', unit: unit.id, file: unit.file });
  return { status: 'written', file: unit.file };
}

/** Why the suite's loader would refuse the file, or `undefined` when it loads. */
export function loadProblem(file: unknown, unit: PacGenerationUnit): string | undefined {
  const parsed = pacScenarioFileSchema.safeParse(file);
  if (!parsed.success) return `the file does not match the scenario schema: ${parsed.error.issues[0]?.message ?? ''}`;
  const normalized = normalizePacScenario({
    file: parsed.data,
    id: unit.id,
    split: unit.policyType,
    policyType: unit.policyType,
    domain: unit.domain,
  });
  return normalized.ok
    ? undefined
    : normalized.problems.map((problem) => `${problem.path}: ${problem.message}`).join('; ');
}
