import type { ModelRoleDefinition } from '../spec/model-role.js';

/** Built-in judge defaults: deterministic decoding, and a fixed seed where the provider honours one. */
export const JUDGE_DEFAULT_SETTINGS = { temperature: 0 } as const;
export const JUDGE_DEFAULT_SEED = 0;

/**
 * The `judge` role: repeatable (an ensemble), never served by a model under test, and decoding
 * deterministically unless `--model-setting judge.…` says otherwise.
 */
export const JUDGE_ROLE: ModelRoleDefinition = {
  id: 'judge',
  kind: 'chat',
  repeatable: true,
  scores: true,
  defaults: { ...JUDGE_DEFAULT_SETTINGS, seed: JUDGE_DEFAULT_SEED },
  unboundNote: 'judges never fall back to a model under test',
};
