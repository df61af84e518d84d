import type { BoundModel, GenerateSettings, ModelRoles, ModelRolesFactory } from '../spec/chat-model.js';
import type { Embedder } from '../spec/embedder.js';
import { PlanValidationError } from '../spec/errors.js';
import { roleFallbacks } from './roles.js';
import type { WrappedChatModel } from './wrap-chat-model.js';

/** Options of `createModelRolesFactory`. */
export type ModelRolesFactoryOptions = {
  /** The wrapped models bound to each role (several for `judge` and for `agent-<id>` seat grids). */
  bindings: Record<string, readonly WrappedChatModel[]>;
  /** Per-role default settings; a request's own settings win over them. */
  settings?: Record<string, GenerateSettings>;
  /** The run's `embedder` role (`--model embedder=<spec>`), shared by every sample; absent when none is bound. */
  embedder?: Embedder;
};

/** The `embedder` role: an embedding model, reached through `ModelRoles.embedder()`, never as a chat model. */
const EMBEDDER_ROLE = 'embedder';

/** What to add when vector retrieval needs an embedder and none is bound. */
export const MISSING_EMBEDDER_HINT =
  'add --model embedder=<spec> (e.g. openai:text-embedding-3-small, transformers:/models/all-MiniLM-L6-v2, or hashing:384 offline)';

function definedSettings(settings: GenerateSettings): GenerateSettings {
  const result: GenerateSettings = {};
  for (const [key, value] of Object.entries(settings) as Array<[keyof GenerateSettings, unknown]>) {
    if (value !== undefined) Object.assign(result, { [key]: value });
  }
  return result;
}

function missingRole(role: string, embedderBound: boolean): PlanValidationError {
  if (role === EMBEDDER_ROLE) {
    return new PlanValidationError(
      embedderBound
        ? 'role "embedder" is an embedding model, not a chat model: use embedder() to reach it'
        : `no embedder is bound to role "embedder": ${MISSING_EMBEDDER_HINT}`,
    );
  }
  if (role === 'judge') {
    return new PlanValidationError(
      'no model is bound to role "judge", and judges never fall back to a model under test: add --model judge=<provider:model>',
    );
  }
  const tried = roleFallbacks(role);
  return new PlanValidationError(
    `no model is bound to role "${role}"${tried.length ? ` (also tried ${tried.join(', ')})` : ''}: add --model ${role}=<provider:model>`,
  );
}

/**
 * Builds the per-sample `ModelRoles`: each model is bound to the sample's context (role,
 * sample id, epoch, event emitter, abort signal). `model(role)` follows the role fallbacks
 * (`generator` → `agent`; `judge` never falls back) and throws `PlanValidationError` when
 * nothing is bound; `ensemble(role)` returns every model of the role that answers.
 * Settings: the bound role's defaults, then the requested role's, then the request's own.
 * `embedder()` returns the run's embedder (the same one for every sample, since retrieval
 * indexes outlive a sample) or throws `PlanValidationError` naming `--model embedder=<spec>`.
 */
export function createModelRolesFactory(options: ModelRolesFactoryOptions): ModelRolesFactory {
  const roleSettings = options.settings ?? {};
  const { embedder } = options;

  function boundRoleOf(role: string): string | undefined {
    return [role, ...roleFallbacks(role)].find((candidate) => (options.bindings[candidate]?.length ?? 0) > 0);
  }

  return (sample) => {
    const bind = (role: string, boundRole: string, wrapped: WrappedChatModel): BoundModel => {
      const defaults = { ...roleSettings[boundRole], ...roleSettings[role] };
      return {
        role,
        provider: wrapped.provider,
        modelId: wrapped.modelId,
        generate: (request) =>
          wrapped.generate(
            {
              ...request,
              settings: { ...defaults, ...definedSettings(request.settings) },
              abortSignal: request.abortSignal ?? sample.signal,
            },
            { role, sampleId: sample.sampleId, epoch: sample.epoch, emit: sample.emit, signal: sample.signal },
          ),
      };
    };
    const ensemble = (role: string): BoundModel[] => {
      const boundRole = boundRoleOf(role);
      if (boundRole === undefined) throw missingRole(role, embedder !== undefined);
      return (options.bindings[boundRole] ?? []).map((wrapped) => bind(role, boundRole, wrapped));
    };
    const roles: ModelRoles = {
      has: (role) => (role === EMBEDDER_ROLE ? embedder !== undefined : boundRoleOf(role) !== undefined),
      model: (role) => ensemble(role)[0]!,
      ensemble,
      embedder: () => {
        if (embedder === undefined) throw missingRole(EMBEDDER_ROLE, false);
        return embedder;
      },
    };
    return roles;
  };
}
