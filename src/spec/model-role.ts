import type { GenerateSettings } from './chat-model.js';

/** What a role is bound to: a chat model (`ModelRoles.model`) or an embedding model (`ModelRoles.embedder`). */
export type ModelRoleKind = 'chat' | 'embedding';

/**
 * One role a run can bind with `--model role=spec`, declared by the layer that uses it (agents,
 * judges, retrieval, orchestration, a suite) and collected into the run's role catalog. Nothing
 * in models/ knows the roles by name: fallbacks, repeats, defaults and hints all come from here.
 */
export type ModelRoleDefinition = {
  /** The role's name, or for a family of roles its display form (`agent-<id>`). */
  id: string;
  /** For a family: the names that belong to it (e.g. `/^agent-[a-z0-9][a-z0-9-]*$/`). */
  pattern?: RegExp;
  kind: ModelRoleKind;
  /** Roles whose model serves this one when it is unbound, in order (none: it never falls back). */
  fallbacks?: readonly string[];
  /** Whether the role may be bound several times (an ensemble, or a grid of seat models). */
  repeatable?: boolean;
  /** Whether the role seats an agent under test (`agent`, `agent-<id>`). */
  seat?: boolean;
  /**
   * Whether the role serves the scorers (judges): `rescore` binds it anew and calls it, while every
   * other role's work is replayed from the source run and never called.
   */
  scores?: boolean;
  /**
   * Settings every model bound to this role starts from; a request's own settings and
   * `--model-setting` win. A default `seed` is applied only where the provider honours seeds.
   */
  defaults?: GenerateSettings;
  /** Why an unbound role is not served by another (e.g. judges never fall back to a model under test). */
  unboundNote?: string;
  /** What the role is for, in the words of "suite X needs …" (default: `a model for role '<id>'`). */
  purpose?: string;
  /** How to bind it when it is missing (default: `add --model <id>=<provider:model>`). */
  bindHint?: string;
  /** A spec that works offline, offered as `--set <id>=<spec>` when a suite option takes one. */
  offlineSpec?: string;
};
