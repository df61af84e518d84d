import type { LimitFunction } from 'p-limit';
import { z } from 'zod';
import { GenerationError, type GenerationJournal, runCheckedStage } from '../../../generation/index.js';
import type { BoundModel } from '../../../spec/chat-model.js';
import { seededRank } from '../../../spec/seeded-random.js';
import { checkCommunity } from '../check-community.js';
import { formatCommunityIssue } from '../community-issue.js';
import { cloneDraft, type Draft } from './generation-draft.js';
import { GENERATION_PROMPTS } from './generation-prompts.js';
import type { Phase, Unit } from './generation-unit.js';
import { ownerOfIssue } from './issue-owner.js';
import { callStructured } from './structured-call.js';

/** One parsed datagen answer of a unit, at a given attempt (1-based): one line of the journal. */
export const journalEntrySchema = z.object({ unit: z.string().min(1), attempt: z.number(), output: z.unknown() });
/** One line of a community generation's journal. */
export type JournalEntry = z.infer<typeof journalEntrySchema>;

/** The journal as the phases use it: the latest answer per unit, and appends. */
export type UnitJournal = {
  latest(unit: string): JournalEntry | undefined;
  append(entry: JournalEntry): Promise<void>;
};

/** A {@link UnitJournal} over an opened generation journal (the last line per unit wins). */
export function unitJournal(journal: GenerationJournal<JournalEntry>): UnitJournal {
  const latest = new Map(journal.lines.map((entry) => [entry.unit, entry]));
  return {
    latest: (unit) => latest.get(unit),
    async append(entry) {
      await journal.append(entry);
      latest.set(entry.unit, entry);
    },
  };
}

/** What happened to a unit, for progress output. */
export type GenerationProgress = {
  phase: string;
  unit: string;
  /** 1-based attempt of the unit. */
  attempt: number;
  status: 'generated' | 'resumed' | 'rejected' | 'accepted';
  /** Why it was rejected. */
  problems?: string[];
};

/** What a phase needs besides its units. */
export type PhaseContext = {
  model: BoundModel;
  journal: UnitJournal;
  limit: LimitFunction;
  signal?: AbortSignal;
  onProgress?: (progress: GenerationProgress) => void;
};

/**
 * Runs one phase to an accepted draft, as one checked stage (`runCheckedStage`) whose items are
 * the phase's units. Every unit's answer comes from the journal when it holds one that still
 * parses, else from a datagen call (journaled at once). Then, in rounds: units whose answer fails
 * their own `validate` are regenerated; once all are valid, their outputs are applied to a copy of
 * the draft and `checkCommunity` runs on it; each issue goes back to the unit that owns it
 * (`ownerOfIssue`), and exactly those units are regenerated, with the problems and their previous
 * answer as feedback. A unit that still fails after `maxAttempts` attempts ends the generation
 * with a {@link GenerationError} listing its problems. An issue owned by no unit of the phase
 * means earlier data went wrong and is also an error. Returns the new draft.
 */
export async function runPhase({
  phase,
  draft,
  context,
}: {
  phase: Phase;
  draft: Draft;
  context: PhaseContext;
}): Promise<Draft> {
  const units = phase.units(draft);
  const byKey = new Map(units.map((unit) => [unit.key, unit]));
  const unitOf = (key: string): Unit => {
    const unit = byKey.get(key);
    if (unit === undefined) throw new Error(`phase ${phase.name} has no unit ${key}`);
    return unit;
  };
  const progress = (unit: string, attempt: number, status: GenerationProgress['status'], problems?: string[]) =>
    context.onProgress?.({ phase: phase.name, unit, attempt, status, ...(problems === undefined ? {} : { problems }) });
  let accepted: Draft | undefined;
  await runCheckedStage<unknown>({
    items: units.map((unit) => {
      const entry = context.journal.latest(unit.key);
      if (entry === undefined) return { key: unit.key };
      return unit.schema.safeParse(entry.output).success
        ? { key: unit.key, prior: { attempt: entry.attempt, value: entry.output } }
        : { key: unit.key, spent: { attempts: entry.attempt, problems: [] } };
    }),
    maxAttempts: draft.options.maxAttempts,
    limit: context.limit,
    generate: async ({ key, attempt, feedback }) => {
      const text = feedback === undefined || feedback.problems.length === 0 ? '' : feedbackText(feedback);
      return { ok: true, value: await generate({ unit: unitOf(key), attempt, feedback: text, draft, context }) };
    },
    check: (answers) => {
      const review = reviewOutputs({ phase, units, answers, draft });
      accepted = review.accepted;
      return review.problems ?? new Map();
    },
    onResumed: ({ key, attempt }) => progress(key, attempt, 'resumed'),
    onGenerated: ({ key, attempt, regeneration }) => {
      if (!regeneration) progress(key, attempt, 'generated');
    },
    onRejected: ({ key, attempt, problems }) => progress(key, attempt, 'rejected', problems),
    onExhausted: ({ key, attempts, problems }) => {
      throw new GenerationError(
        `datagen kept producing data that fails the rule checks: unit '${key}' still fails after ${attempts} attempt(s):\n` +
          `${problems.map((line) => `  ${line}`).join('\n')}\n` +
          'use a stronger --model datagen=…, or raise --max-attempts; finished units are kept, so rerunning the command resumes',
        { unit: key },
      );
    },
    onAccepted: ({ key, attempt }) => progress(key, attempt, 'accepted'),
  });
  if (accepted === undefined) throw new Error(`phase ${phase.name} ended without an accepted draft`);
  return accepted;
}

/**
 * Checks the phase's current outputs: first each unit's own `validate`; when all pass, applies
 * them to a copy of the draft and runs `checkCommunity`, sending each issue to its owning unit.
 * Returns the accepted draft, or the problems by unit key. Throws for issues no unit here owns.
 */
function reviewOutputs({
  phase,
  units,
  answers,
  draft,
}: {
  phase: Phase;
  units: readonly Unit[];
  answers: ReadonlyMap<string, unknown>;
  draft: Draft;
}): { accepted: Draft; problems?: undefined } | { accepted?: undefined; problems: Map<string, string[]> } {
  const problems = new Map<string, string[]>();
  for (const unit of units) {
    const found = unit.validate(answers.get(unit.key), draft);
    if (found.length > 0) problems.set(unit.key, found);
  }
  // Outputs that fail their own checks are not applied: the community checks would misreport.
  if (problems.size > 0) return { problems };
  const trial = cloneDraft(draft);
  for (const unit of units) unit.apply(trial, answers.get(unit.key));
  const keys = new Set(units.map((unit) => unit.key));
  const stray: string[] = [];
  for (const issue of checkCommunity({ community: trial.community, documents: trial.documents })) {
    const owner = ownerOfIssue({ issue, draft: trial });
    const line = formatCommunityIssue(issue);
    if (owner !== undefined && keys.has(owner)) problems.set(owner, [...(problems.get(owner) ?? []), line]);
    else stray.push(line);
  }
  if (stray.length > 0) {
    throw new GenerationError(
      `generation phase '${phase.name}' produced problems no unit of it can fix:\n${stray.map((line) => `  ${line}`).join('\n')}`,
    );
  }
  return problems.size === 0 ? { accepted: trial } : { problems };
}

async function generate({
  unit,
  attempt,
  feedback,
  draft,
  context,
}: {
  unit: Unit;
  attempt: number;
  feedback: string;
  draft: Draft;
  context: PhaseContext;
}): Promise<unknown> {
  const { seed, maxParseRetries } = draft.options;
  const result = await callStructured({
    model: context.model,
    unit: unit.key,
    template: GENERATION_PROMPTS[unit.step],
    task: unit.task,
    feedback,
    schema: unit.schema,
    seed: seededRank([seed, unit.key]) % 2_147_483_647,
    ordinalBase: (attempt - 1) * (maxParseRetries + 1),
    maxParseRetries,
    ...(context.signal === undefined ? {} : { signal: context.signal }),
  });
  await context.journal.append({ unit: unit.key, attempt, output: result.value });
  return result.value;
}

/** The feedback block of a regeneration prompt: what was wrong and the rejected answer. */
export function feedbackText({ problems, previous }: { problems: readonly string[]; previous?: unknown }): string {
  return [
    '',
    'Your previous answer was rejected. Fix these problems and answer again in full:',
    ...problems.map((problem) => `- ${problem}`),
    'Your previous answer was:',
    JSON.stringify(previous),
    '',
  ].join('\n');
}
