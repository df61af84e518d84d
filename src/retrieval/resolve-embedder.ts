import { findProvider } from '../models/provider-registry.js';
import type { EmbeddingModel } from '../spec/embedding-model.js';
import { ModelSpecError } from '../spec/errors.js';
import type { ModelSpec } from '../spec/model-spec.js';
import { type Embedder, embedderOf, embeddingModelOf } from './embedder.js';
import { createHashingEmbedder } from './hashing-embedder.js';

/** Providers an `embedder` role spec may name, with an example each. */
export const EMBEDDER_SPEC_EXAMPLES: Readonly<Record<string, string>> = {
  openai: 'openai:text-embedding-3-small',
  ollama: 'ollama:nomic-embed-text',
  'openai-compatible': 'openai-compatible:my-embedder@http://127.0.0.1:8080/v1',
  vllm: 'vllm:BAAI/bge-small-en-v1.5@http://127.0.0.1:8000/v1',
  transformers: 'transformers:/models/all-MiniLM-L6-v2',
  hashing: 'hashing:384',
};

/** Options of `resolveEmbeddingModel` and `resolveEmbedder`. */
export type ResolveEmbedderOptions = {
  spec: ModelSpec;
  /**
   * The provider's API key, read by the caller (only cli/ reads the environment); a function is
   * called only when a remote provider needs it, so an unsupported spec fails before a key is asked for.
   */
  apiKey?: string | (() => string | undefined);
  /** Replaces the global fetch (tests, proxies). */
  fetch?: typeof fetch;
  /** The vector length when known; otherwise remote models are probed once. */
  dimension?: number;
  /** The SDK's retries per request for remote models (default 2; 0 under a retry middleware). */
  maxRetries?: number;
  /** The SDK's retries for the one dimension probe of a remote model (default `maxRetries`). */
  probeRetries?: number;
};

const REMOTE_EMBEDDERS = ['openai', 'ollama', 'vllm', 'openai-compatible'];

/**
 * What {@link resolveEmbeddingModel} would refuse, found without creating an adapter or loading a
 * model (for `run --dry-run`): a provider without embedding support here, a hashing dimension that
 * is not a positive integer, a remote embedder without a base URL or without its required API key
 * (`apiKey` throws the missing-key error). Throws a `ModelSpecError` naming the fix.
 */
export function checkEmbedderSpec({ spec, apiKey }: { spec: ModelSpec; apiKey: () => string | undefined }): void {
  const name = `${spec.provider}:${spec.modelId}`;
  if (spec.provider === 'hashing') {
    hashingDimension(spec);
    return;
  }
  if (spec.provider === 'transformers') return;
  if (!REMOTE_EMBEDDERS.includes(spec.provider)) throw unsupportedEmbedder(spec);
  if (spec.provider !== 'openai' && (spec.baseURLs[0] ?? findProvider(spec.provider)?.defaultBaseURL) === undefined) {
    throw new ModelSpecError(`embedder ${name} needs a base URL: ${EMBEDDER_SPEC_EXAMPLES[spec.provider]}`);
  }
  apiKey();
}

function hashingDimension(spec: ModelSpec): number {
  const dimension = Number(spec.modelId);
  if (!Number.isInteger(dimension) || dimension < 1) {
    throw new ModelSpecError(
      `embedder ${spec.provider}:${spec.modelId}: the hashing dimension must be a positive integer, e.g. hashing:384`,
    );
  }
  return dimension;
}

function unsupportedEmbedder(spec: ModelSpec): ModelSpecError {
  return new ModelSpecError(
    `embedder ${spec.provider}:${spec.modelId}: provider '${spec.provider}' has no embedding support here; use one of ${Object.values(
      EMBEDDER_SPEC_EXAMPLES,
    ).join(', ')}`,
  );
}

/**
 * Turns an embedding role spec into an embedding adapter: `openai:<id>` and the OpenAI-compatible
 * providers (`ollama`, `vllm`, `openai-compatible`; the first base URL is used) go through the
 * AI SDK; `transformers:<local model directory>` runs transformers.js on the CPU;
 * `hashing:<dimension>` is the offline, non-semantic hashing embedder. Anything else is a
 * ModelSpecError listing what works. A run wraps the adapter in its middleware
 * (`resolveModelRoles`); `resolveEmbedder` uses it directly.
 */
export async function resolveEmbeddingModel(options: ResolveEmbedderOptions): Promise<EmbeddingModel> {
  const { spec } = options;
  const name = `${spec.provider}:${spec.modelId}`;
  const local = (embedder: Embedder) => embeddingModelOf({ embedder, provider: spec.provider, modelId: spec.modelId });
  const remote = () => {
    const apiKey = typeof options.apiKey === 'function' ? options.apiKey() : options.apiKey;
    return {
      adapter: {
        provider: spec.provider,
        ...(options.dimension === undefined ? {} : { dimension: options.dimension }),
        ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
        ...(options.probeRetries === undefined ? {} : { probeRetries: options.probeRetries }),
        secrets: apiKey === undefined ? [] : [apiKey],
      },
      client: {
        ...(apiKey === undefined ? {} : { apiKey }),
        ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
      },
    };
  };
  switch (spec.provider) {
    case 'hashing':
      return local(createHashingEmbedder({ dimension: hashingDimension(spec) }));
    case 'transformers': {
      // Loaded on first use: most runs have no embedder, and the others rarely a local one.
      const { createTransformersEmbedder } = await import('./transformers-embedder.js');
      return local(await createTransformersEmbedder({ modelPath: spec.modelId }));
    }
    case 'openai': {
      const { adapter, client } = remote();
      // The AI SDK is loaded on first use of a remote embedder.
      const [{ createOpenAI }, { createAiSdkEmbeddingModel }] = await Promise.all([
        import('@ai-sdk/openai'),
        import('./ai-sdk-embedder.js'),
      ]);
      const provider = createOpenAI({
        ...client,
        ...(spec.baseURLs[0] === undefined ? {} : { baseURL: spec.baseURLs[0] }),
      });
      return createAiSdkEmbeddingModel({ model: provider.embeddingModel(spec.modelId), ...adapter });
    }
    case 'ollama':
    case 'vllm':
    case 'openai-compatible': {
      const baseURL = spec.baseURLs[0] ?? findProvider(spec.provider)?.defaultBaseURL;
      if (baseURL === undefined) {
        throw new ModelSpecError(`embedder ${name} needs a base URL: ${EMBEDDER_SPEC_EXAMPLES[spec.provider]}`);
      }
      const { adapter, client } = remote();
      const [{ createOpenAICompatible }, { createAiSdkEmbeddingModel }] = await Promise.all([
        import('@ai-sdk/openai-compatible'),
        import('./ai-sdk-embedder.js'),
      ]);
      const provider = createOpenAICompatible({ name: spec.provider, baseURL, ...client });
      return createAiSdkEmbeddingModel({ model: provider.embeddingModel(spec.modelId), ...adapter });
    }
    default:
      throw unsupportedEmbedder(spec);
  }
}

/** `resolveEmbeddingModel` used directly as an Embedder (no cache or ledger; the SDK retries). */
export async function resolveEmbedder(options: ResolveEmbedderOptions): Promise<Embedder> {
  return embedderOf(await resolveEmbeddingModel(options));
}
