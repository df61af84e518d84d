import { z } from 'zod';
import { type GenerationJournal, openGenerationJournal } from '../../../generation/index.js';
import { PAC_GENERATION_STAGES, type PacGenerationStage } from './pac-rule-issue.js';
import {
  type PacGeneratedConstraint,
  type PacGeneratedMemory,
  type PacScenarioDraft,
  pacGeneratedConstraintSchema,
  pacGeneratedMemorySchema,
  pacScenarioDraftSchema,
} from './stage-schemas.js';

/**
 * The settings that shape every generated scenario. Which domains, how many scenarios and which
 * policy types may change between sessions (units are independent), as may the retry limits.
 */
export type PacGenerationPlan = {
  formatVersion: 1;
  seed: number;
  agents: number;
  requirementCount: number;
  /** `<template id>@v<version>` → SHA-256 of each stage prompt. */
  prompts: Record<string, string>;
  /** `provider:modelId` of the datagen model. */
  datagenModel: string;
};

const stageLine = z.object({
  kind: z.literal('stage'),
  unit: z.string().min(1),
  stage: z.enum(PAC_GENERATION_STAGES),
  agent: z.string().optional(),
  attempt: z.int().positive(),
  output: z.unknown(),
});
const doneLine = z.object({ kind: z.literal('done'), unit: z.string().min(1), file: z.string().min(1) });
const rejectedLine = z.object({
  kind: z.literal('rejected'),
  unit: z.string().min(1),
  stage: z.enum(PAC_GENERATION_STAGES),
  agent: z.string().optional(),
  attempts: z.int().positive(),
  reasons: z.array(z.string()),
});
/** A stage line's output must match its stage's schema, and per-agent stages must name the agent. */
const journalLineSchema = z
  .discriminatedUnion('kind', [stageLine, doneLine, rejectedLine])
  .superRefine((line, context) => {
    if (line.kind !== 'stage') return;
    if ((line.stage === 'memory' || line.stage === 'constraint') && line.agent === undefined) {
      context.addIssue({ code: 'custom', message: `a ${line.stage} line names its agent`, path: ['agent'] });
    } else if (!outputSchemas[line.stage].safeParse(line.output).success) {
      context.addIssue({ code: 'custom', message: `not a ${line.stage} output`, path: ['output'] });
    }
  });
/** One line of the journal. */
export type PacJournalLine = z.infer<typeof journalLineSchema>;

/** Why a unit was given up, as the journal keeps it. */
export type PacUnitRejection = { stage: PacGenerationStage; agent?: string; attempts: number; reasons: string[] };

/** Everything the journal knows about one unit. Later lines replace earlier ones. */
export type PacUnitRecord = {
  scenario?: PacScenarioDraft;
  requirements?: string[];
  /** Accepted memories by agent key. */
  memory: Map<string, PacGeneratedMemory[]>;
  /** Accepted constraints by agent key. */
  constraint: Map<string, PacGeneratedConstraint[]>;
  /** The file (relative to the output folder) once written. */
  done?: string;
  rejected?: PacUnitRejection;
};

const outputSchemas = {
  scenario: pacScenarioDraftSchema,
  requirements: z.array(z.string()),
  memory: z.array(pacGeneratedMemorySchema),
  constraint: z.array(pacGeneratedConstraintSchema),
} as const;

/** The resumable journal of one generation. */
export type PacGenerationJournal = {
  /** `<outDir>/.generate`. */
  readonly dir: string;
  /** What is known about `unit` (an empty record when nothing is). */
  unit(unit: string): PacUnitRecord;
  /** Appends one line and applies it; appends are serialised, each one a single write of one line. */
  append(line: PacJournalLine): Promise<void>;
};

function emptyRecord(): PacUnitRecord {
  return { memory: new Map(), constraint: new Map() };
}

function apply(records: Map<string, PacUnitRecord>, line: PacJournalLine): void {
  const record = records.get(line.unit) ?? emptyRecord();
  records.set(line.unit, record);
  if (line.kind === 'done') {
    record.done = line.file;
    delete record.rejected;
    return;
  }
  if (line.kind === 'rejected') {
    record.rejected = {
      stage: line.stage,
      attempts: line.attempts,
      reasons: [...line.reasons],
      ...(line.agent === undefined ? {} : { agent: line.agent }),
    };
    return;
  }
  delete record.rejected;
  const agent = line.agent ?? '';
  if (line.stage === 'scenario') record.scenario = outputSchemas.scenario.parse(line.output);
  else if (line.stage === 'requirements') record.requirements = outputSchemas.requirements.parse(line.output);
  else if (line.stage === 'memory') record.memory.set(agent, outputSchemas.memory.parse(line.output));
  else record.constraint.set(agent, outputSchemas.constraint.parse(line.output));
}

/**
 * Opens (or starts) the PAC journal in `<outDir>/.generate/` (see `openGenerationJournal`): a
 * generation never continues with another seed, agent count, requirement count, prompt wording
 * or datagen model (a `GenerationError` names the differing fields); domains, counts, policy
 * types and retry limits may change between sessions (units are independent). The lines are
 * folded into one record per unit, later lines replacing earlier ones.
 */
export async function openPacGenerationJournal({
  outDir,
  plan,
}: {
  outDir: string;
  plan: PacGenerationPlan;
}): Promise<PacGenerationJournal> {
  const journal: GenerationJournal<PacJournalLine> = await openGenerationJournal({
    outDir,
    plan: {
      formatVersion: plan.formatVersion,
      generator: 'pac',
      settings: { seed: plan.seed, agents: plan.agents, requirementCount: plan.requirementCount },
      prompts: plan.prompts,
      datagenModel: plan.datagenModel,
    },
    lineSchema: journalLineSchema,
    labels: { agents: 'agents per scenario', requirementCount: 'requirement count' },
  });
  const records = new Map<string, PacUnitRecord>();
  for (const line of journal.lines) apply(records, line);
  return {
    dir: journal.dir,
    unit: (unit) => records.get(unit) ?? emptyRecord(),
    async append(line) {
      await journal.append(line);
      apply(records, line);
    },
  };
}
