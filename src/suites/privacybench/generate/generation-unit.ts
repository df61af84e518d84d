import type { ZodType } from 'zod';
import type { Draft } from './generation-draft.js';
import type { GenerationStep } from './generation-prompts.js';

/**
 * One datagen call's worth of work: a seeds list, one profile, one sharing conversation, a batch
 * of documents. Its answer is journaled under `key`, so a killed generation resumes without
 * asking again, and a unit whose answer fails the checks is regenerated alone.
 */
export type GenerationUnit<T> = {
  /** Stable id, unique in the generation, e.g. `profile/u03` or `docs/1/u02/chat/0`. */
  key: string;
  /** The prompt template it uses. */
  step: GenerationStep;
  /** The structured output it expects. */
  schema: ZodType<T>;
  /** The JSON task block of the prompt (computed from the draft before the phase). */
  task: unknown;
  /** Problems the community checks cannot see (wrong counts, missing slots); [] when fine. */
  validate(output: T, draft: Draft): string[];
  /** Adds the output to the draft (called only with outputs that passed `validate`). */
  apply(draft: Draft, output: T): void;
};

/** A unit with its output type erased, so units of different steps can run in one phase. */
export type Unit = {
  key: string;
  step: GenerationStep;
  schema: ZodType;
  task: unknown;
  validate(output: unknown, draft: Draft): string[];
  apply(draft: Draft, output: unknown): void;
};

/** Erases a unit's output type; outputs are re-validated by its schema at the boundary. */
export function defineUnit<T>(unit: GenerationUnit<T>): Unit {
  return {
    key: unit.key,
    step: unit.step,
    schema: unit.schema,
    task: unit.task,
    validate: (output, draft) => unit.validate(unit.schema.parse(output), draft),
    apply: (draft, output) => unit.apply(draft, unit.schema.parse(output)),
  };
}

/** A set of independent units built from the draft as it stands when the phase starts. */
export type Phase = { name: string; units(draft: Draft): Unit[] };
