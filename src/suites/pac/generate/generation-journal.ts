import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { canonicalJson } from '../../../models/index.js';
import { PacGenerationError } from './pac-generation-error.js';
import { PAC_GENERATION_STAGES, type PacGenerationStage } from './pac-rule-issue.js';
import {
  type PacGeneratedConstraint,
  type PacGeneratedMemory,
  type PacScenarioDraft,
  pacGeneratedConstraintSchema,
  pacGeneratedMemorySchema,
  pacScenarioDraftSchema,
} from './stage-schemas.js';
import { writeFileAtomic } from './write-file-atomic.js';

/** The journal folder inside the output folder (the suite's loader never looks there). */
export const PAC_JOURNAL_DIR = '.generate';
/** What the generation is made of: a resume must find it unchanged. */
export const PAC_PLAN_FILE = 'pac-plan.json';
/** One JSON line per accepted stage output, finished unit or rejected unit. */
export const PAC_JOURNAL_FILE = 'pac-journal.jsonl';

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
const journalLineSchema = z.discriminatedUnion('kind', [stageLine, doneLine, rejectedLine]);
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

/** True when `line` is a stage line whose output matches its stage's schema (and names an agent where needed). */
function validStageOutput(line: PacJournalLine): boolean {
  if (line.kind !== 'stage') return true;
  if ((line.stage === 'memory' || line.stage === 'constraint') && line.agent === undefined) return false;
  return outputSchemas[line.stage].safeParse(line.output).success;
}

/**
 * Opens (or starts) the journal in `<outDir>/.generate/`. A new journal writes `pac-plan.json`
 * atomically; an existing one must hold the same plan, or a `PacGenerationError` names the
 * differing fields (a generation never continues with another seed, agent count, requirement
 * count, prompt wording or datagen model). A partial last line (left by a kill) is ignored; any
 * other unreadable line is an error naming it.
 */
export async function openPacGenerationJournal({
  outDir,
  plan,
}: {
  outDir: string;
  plan: PacGenerationPlan;
}): Promise<PacGenerationJournal> {
  const dir = join(outDir, PAC_JOURNAL_DIR);
  const planPath = join(dir, PAC_PLAN_FILE);
  const journalPath = join(dir, PAC_JOURNAL_FILE);
  await mkdir(dir, { recursive: true });
  const storedPlan = await readIfExists(planPath);
  if (storedPlan === undefined) {
    await writeFileAtomic(planPath, `${JSON.stringify(plan, null, 2)}\n`);
  } else {
    const differences = planDifferences(parseJson(storedPlan), plan);
    if (differences.length > 0) {
      throw new PacGenerationError(
        `${outDir} holds a PAC generation with other settings (${differences.join(', ')}); repeat it with the ` +
          `original settings to continue it, or choose another --out`,
      );
    }
  }
  const records = new Map<string, PacUnitRecord>();
  const lines = ((await readIfExists(journalPath)) ?? '').split('\n');
  lines.forEach((text, index) => {
    if (text.trim() === '') return;
    const parsed = journalLineSchema.safeParse(parseJson(text));
    if (!parsed.success || !validStageOutput(parsed.data)) {
      if (index === lines.length - 1) return; // a partial line left by a kill
      throw new PacGenerationError(
        `${journalPath}:${index + 1} is not a PAC generation journal line; delete ${dir} to start over`,
      );
    }
    apply(records, parsed.data);
  });
  let queue: Promise<void> = Promise.resolve();
  return {
    dir,
    unit: (unit) => records.get(unit) ?? emptyRecord(),
    append(line) {
      const write = queue.then(async () => {
        const checked = journalLineSchema.parse(line);
        await appendFile(journalPath, `${JSON.stringify(checked)}\n`, 'utf8');
        apply(records, checked);
      });
      queue = write.catch(() => undefined);
      return write;
    },
  };
}

function planDifferences(stored: unknown, plan: PacGenerationPlan): string[] {
  if (typeof stored !== 'object' || stored === null) return [`${PAC_PLAN_FILE} is unreadable`];
  const old = stored as Record<string, unknown>;
  const names: Record<keyof PacGenerationPlan, string> = {
    formatVersion: 'journal format',
    seed: 'seed',
    agents: 'agents per scenario',
    requirementCount: 'requirement count',
    prompts: 'prompt versions',
    datagenModel: `datagen model (was ${String(old.datagenModel)})`,
  };
  return (Object.keys(names) as Array<keyof PacGenerationPlan>)
    .filter((key) => canonicalJson(old[key]) !== canonicalJson(plan[key]))
    .map((key) => names[key]);
}

async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return undefined;
    throw error;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
