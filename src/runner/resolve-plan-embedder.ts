import { parseModelSpec } from '../models/parse-model-spec.js';
import { findProvider } from '../models/provider-registry.js';
import { apiKeyFromEnv } from '../models/resolve-chat-model.js';
import { EMBEDDER_SPEC_EXAMPLES, resolveEmbedder } from '../retrieval/resolve-embedder.js';
import type { Embedder } from '../spec/embedder.js';
import type { ModelSpec, RoleBinding } from '../spec/model-spec.js';

/** A run's resolved `embedder` role and the spec it came from (for the run header). */
export type PlanEmbedder = { embedder: Embedder; spec: ModelSpec };

/**
 * Resolves `--model embedder=<spec>` into an Embedder. The API key comes from `env` under the
 * provider registry's `apiKeyEnv` names, exactly as for chat models (a missing required key is a
 * `MissingApiKeyError`); providers outside the registry (`transformers`, `hashing`) take none, and
 * providers without embedding support are a `ModelSpecError` listing the ones that work.
 * Remote embedders may call their endpoint once here to learn the vector length.
 */
export async function resolvePlanEmbedder({
  binding,
  env,
  maxRetries,
}: {
  binding: RoleBinding;
  env: Record<string, string | undefined>;
  /** The SDK's retries per embedding request. */
  maxRetries?: number;
}): Promise<PlanEmbedder> {
  const spec = parseModelSpec(binding.spec);
  // A provider without embedding support gets that error from resolveEmbedder, not a key request.
  const provider = Object.hasOwn(EMBEDDER_SPEC_EXAMPLES, spec.provider) ? findProvider(spec.provider) : undefined;
  const apiKey = provider === undefined ? undefined : apiKeyFromEnv({ provider, spec, env });
  const embedder = await resolveEmbedder({
    spec,
    ...(apiKey === undefined ? {} : { apiKey }),
    ...(maxRetries === undefined ? {} : { maxRetries }),
  });
  return { embedder, spec };
}
