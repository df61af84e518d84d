import type { BoundModel, GenerateSettings, ModelRoles, ModelRolesFactory } from '../spec/chat-model.js';
import type { Embedder } from '../spec/embedder.js';
import { PlanValidationError } from '../spec/errors.js';
import type { RoleCatalog } from './role-catalog.js';
import type { WrappedChatModel } from './wrap-chat-model.js';
import type { WrappedEmbeddingModel } from './wrap-embedding-model.js';

/** Options of `createModelRolesFactory`. */
export type ModelRolesFactoryOptions = {
  /** The roles the bindings belong to: fallbacks, kinds and the hints of missing-role errors. */
  roles: RoleCatalog;
  /** The wrapped chat models bound to each role (several for repeatable roles: judges, seat grids). */
  bindings: Record<string, readonly WrappedChatModel[]>;
  /** The wrapped embedding models bound to each embedding role (`embedder`), shared by every sample. */
  embeddings?: Record<string, WrappedEmbeddingModel>;
  /** Per-role default settings; a request's own settings win over them. */
  settings?: Record<string, GenerateSettings>;
};

/** The role `ModelRoles.embedder()` reaches when none is named. */
const DEFAULT_EMBEDDING_ROLE = 'embedder';

/**
 * `defaults` overlaid with the request's defined settings: `{ ...defaults, ...defined(settings) }`
 * in one object (every call of every sample passes here): a plain own-key loop, no temporaries.
 */
function mergedSettings(defaults: GenerateSettings, settings: GenerateSettings): GenerateSettings {
  const result: Record<string, unknown> = { ...defaults };
  for (const key of Object.keys(settings)) {
    const value = (settings as Record<string, unknown>)[key];
    if (value !== undefined) result[key] = value;
  }
  return result as GenerateSettings;
}

/** The error for a role that nothing serves, worded from its definition. */
function missingRole({ roles, role }: { roles: RoleCatalog; role: string }): PlanValidationError {
  const definition = roles.find(role);
  if (definition?.kind === 'embedding') {
    return new PlanValidationError(
      `no embedder is bound to role "${role}": ${definition.bindHint ?? `add --model ${role}=<spec>`}`,
    );
  }
  const tried = roles.fallbacks(role);
  const why = definition?.unboundNote
    ? `, and ${definition.unboundNote}`
    : tried.length
      ? ` (also tried ${tried.join(', ')})`
      : '';
  return new PlanValidationError(
    `no model is bound to role "${role}"${why}: ${definition?.bindHint ?? `add --model ${role}=<provider:model>`}`,
  );
}

/**
 * Builds the per-sample `ModelRoles`: each model is bound to the sample's context (role,
 * sample id, epoch, event emitter, abort signal). `model(role)` follows the role fallbacks of
 * the catalog (`generator` → `agent`; `judge` never falls back) and throws `PlanValidationError`
 * when nothing is bound; `ensemble(role)` returns every model of the role that answers.
 * Settings: the bound role's defaults, then the requested role's, then the request's own.
 * `embedder(role)` returns the embedding model of an embedding role (the same vectors for every
 * sample, since retrieval indexes outlive a sample) or throws `PlanValidationError` naming the
 * flag to add. Asking `model()` for an embedding role, or `embedder()` for a chat role, says so.
 */
export function createModelRolesFactory(options: ModelRolesFactoryOptions): ModelRolesFactory {
  const { roles } = options;
  const roleSettings = options.settings ?? {};
  const embeddings = options.embeddings ?? {};

  function boundRoleOf(role: string): string | undefined {
    return [role, ...roles.fallbacks(role)].find((candidate) => (options.bindings[candidate]?.length ?? 0) > 0);
  }

  return (sample) => {
    const context = (role: string) => ({
      role,
      sampleId: sample.sampleId,
      epoch: sample.epoch,
      emit: sample.emit,
      signal: sample.signal,
    });
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
              settings: mergedSettings(defaults, request.settings),
              abortSignal: request.abortSignal ?? sample.signal,
            },
            context(role),
          ),
      };
    };
    const ensemble = (role: string): BoundModel[] => {
      if (roles.find(role)?.kind === 'embedding') {
        if (embeddings[role] === undefined) throw missingRole({ roles, role });
        throw new PlanValidationError(
          `role "${role}" is an embedding model, not a chat model: use embedder() to reach it`,
        );
      }
      const boundRole = boundRoleOf(role);
      if (boundRole === undefined) throw missingRole({ roles, role });
      return (options.bindings[boundRole] ?? []).map((wrapped) => bind(role, boundRole, wrapped));
    };
    const embedder = (role: string = DEFAULT_EMBEDDING_ROLE): Embedder => {
      const wrapped = embeddings[role];
      if (wrapped === undefined) {
        if (roles.find(role)?.kind === 'chat') {
          throw new PlanValidationError(
            `role "${role}" is a chat model, not an embedding model: use model() to reach it`,
          );
        }
        throw missingRole({ roles, role });
      }
      return {
        id: wrapped.id,
        dimension: wrapped.dimension,
        embed: async (texts, embedOptions = {}) => {
          if (texts.length === 0) return [];
          const signal = embedOptions.signal ?? sample.signal;
          const result = await wrapped.embed({ texts: [...texts], abortSignal: signal }, context(role));
          return result.embeddings;
        },
      };
    };
    const modelRoles: ModelRoles = {
      has: (role) =>
        roles.find(role)?.kind === 'embedding' ? embeddings[role] !== undefined : boundRoleOf(role) !== undefined,
      model: (role) => ensemble(role)[0]!,
      ensemble,
      embedder,
    };
    return modelRoles;
  };
}
