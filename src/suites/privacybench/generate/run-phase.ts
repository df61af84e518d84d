import type { LimitFunction } from 'p-limit';
import type { BoundModel } from '../../../spec/chat-model.js';
import { checkCommunity } from '../check-community.js';
import { formatCommunityIssue } from '../community-issue.js';
import { seededRank } from '../seeded-random.js';
import { cloneDraft, type Draft } from './generation-draft.js';
import { GenerationError } from './generation-error.js';
import type { GenerationJournal } from './generation-journal.js';
import { GENERATION_PROMPTS } from './generation-prompts.js';
import type { Phase, Unit } from './generation-unit.js';
import { ownerOfIssue } from './issue-owner.js';
import { callStructured } from './structured-call.js';

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
  journal: GenerationJournal;
  limit: LimitFunction;
  signal?: AbortSignal;
  onProgress?: (progress: GenerationProgress) => void;
};

type UnitState = { attempt: number; output: unknown };

/**
 * Runs one phase to an accepted draft. Every unit's answer comes from the journal when it holds one
 * that still parses, else from a datagen call (journaled at once). Then, in rounds: units whose
 * answer fails their own `validate` are regenerated; once all are valid, their outputs are applied
 * to a copy of the draft and `checkCommunity` runs on it; each issue goes back to the unit that
 * owns it (`ownerOfIssue`), and exactly those units are regenerated, with the problems and their
 * previous answer as feedback. A unit that still fails after `maxAttempts` attempts ends the
 * generation with a {@link GenerationError} listing its problems. An issue owned by no unit of the
 * phase means earlier data went wrong and is also an error. Returns the new draft.
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
  const { maxAttempts } = draft.options;
  const states = new Map<string, UnitState>();
  await runAll({
    limit: context.limit,
    tasks: units.map((unit) => async () => {
      const entry = context.journal.latest(unit.key);
      if (entry !== undefined && unit.schema.safeParse(entry.output).success) {
        states.set(unit.key, { attempt: entry.attempt, output: entry.output });
        context.onProgress?.({ phase: phase.name, unit: unit.key, attempt: entry.attempt, status: 'resumed' });
        return;
      }
      states.set(unit.key, await generate({ unit, attempt: (entry?.attempt ?? 0) + 1, feedback: '', draft, context }));
      context.onProgress?.({
        phase: phase.name,
        unit: unit.key,
        attempt: states.get(unit.key)?.attempt ?? 1,
        status: 'generated',
      });
    }),
  });

  for (;;) {
    const review = reviewOutputs({ phase, units, states, draft });
    if (review.accepted !== undefined) {
      for (const unit of units) {
        const { attempt } = stateOf(states, unit);
        context.onProgress?.({ phase: phase.name, unit: unit.key, attempt, status: 'accepted' });
      }
      return review.accepted;
    }
    const { problems } = review;
    await runAll({
      limit: context.limit,
      tasks: units
        .filter((unit) => problems.has(unit.key))
        .map((unit) => async () => {
          const state = stateOf(states, unit);
          const found = problems.get(unit.key) ?? [];
          context.onProgress?.({
            phase: phase.name,
            unit: unit.key,
            attempt: state.attempt,
            status: 'rejected',
            problems: found,
          });
          if (state.attempt >= maxAttempts) {
            throw new GenerationError(
              `datagen kept producing data that fails the rule checks: unit '${unit.key}' still fails after ${state.attempt} attempt(s):\n` +
                `${found.map((line) => `  ${line}`).join('\n')}\n` +
                'use a stronger --model datagen=…, or raise --max-attempts; finished units are kept, so rerunning the command resumes',
              { unit: unit.key },
            );
          }
          states.set(
            unit.key,
            await generate({
              unit,
              attempt: state.attempt + 1,
              feedback: feedbackText({ problems: found, previous: state.output }),
              draft,
              context,
            }),
          );
        }),
    });
  }
}

/**
 * Checks the phase's current outputs: first each unit's own `validate`; when all pass, applies
 * them to a copy of the draft and runs `checkCommunity`, sending each issue to its owning unit.
 * Returns the accepted draft, or the problems by unit key. Throws for issues no unit here owns.
 */
function reviewOutputs({
  phase,
  units,
  states,
  draft,
}: {
  phase: Phase;
  units: readonly Unit[];
  states: Map<string, UnitState>;
  draft: Draft;
}): { accepted: Draft; problems?: undefined } | { accepted?: undefined; problems: Map<string, string[]> } {
  const problems = new Map<string, string[]>();
  for (const unit of units) {
    const found = unit.validate(stateOf(states, unit).output, draft);
    if (found.length > 0) problems.set(unit.key, found);
  }
  // Outputs that fail their own checks are not applied: the community checks would misreport.
  if (problems.size > 0) return { problems };
  const trial = cloneDraft(draft);
  for (const unit of units) unit.apply(trial, stateOf(states, unit).output);
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

/**
 * Runs tasks under the limiter. After the first failure no further task starts; the call waits
 * for the ones in flight (so nothing keeps spending tokens after it returns), then rethrows it.
 */
async function runAll({ limit, tasks }: { limit: LimitFunction; tasks: Array<() => Promise<void>> }): Promise<void> {
  let failure: { error: unknown } | undefined;
  await Promise.all(
    tasks.map((task) =>
      limit(async () => {
        if (failure !== undefined) return;
        try {
          await task();
        } catch (error) {
          failure ??= { error };
        }
      }),
    ),
  );
  if (failure !== undefined) throw failure.error;
}

function stateOf(states: Map<string, UnitState>, unit: Unit): UnitState {
  const state = states.get(unit.key);
  if (state === undefined) throw new Error(`unit ${unit.key} has no answer`);
  return state;
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
}): Promise<UnitState> {
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
  return { attempt, output: result.value };
}

/** The feedback block of a regeneration prompt: what was wrong and the rejected answer. */
export function feedbackText({ problems, previous }: { problems: readonly string[]; previous: unknown }): string {
  return [
    '',
    'Your previous answer was rejected. Fix these problems and answer again in full:',
    ...problems.map((problem) => `- ${problem}`),
    'Your previous answer was:',
    JSON.stringify(previous),
    '',
  ].join('\n');
}
