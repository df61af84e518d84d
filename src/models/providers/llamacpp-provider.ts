import { ModelSpecError } from '../../spec/errors.js';
import type { LlamaGpu } from '../llamacpp-api.js';
import { createLlamaCppChatModel } from '../llamacpp-chat-model.js';
import type { LlamaCppEngineOptions } from '../llamacpp-engine.js';
import { localFileProbe } from '../probes/local-file-probe.js';
import type { ProviderDefinition } from '../provider-registry.js';

const GPU_VALUES: Record<string, LlamaGpu> = {
  false: false,
  off: false,
  cpu: false,
  auto: 'auto',
  cuda: 'cuda',
  vulkan: 'vulkan',
  metal: 'metal',
};

function positiveInteger({ env, name }: { env: Record<string, string | undefined>; name: string }): number | undefined {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    throw new ModelSpecError(`${name} must be a positive whole number, got "${raw}"`);
  }
  return value;
}

/**
 * The engine settings a user may give in the environment (the spec holds only the file path):
 * CONFIDANT_LLAMACPP_GPU, _THREADS, _CONTEXT_SIZE and _SEQUENCES. Bad values are `ModelSpecError`s.
 */
export function llamaCppEnvOptions(env: Record<string, string | undefined>): Omit<LlamaCppEngineOptions, 'modelPath'> {
  const options: Omit<LlamaCppEngineOptions, 'modelPath'> = {};
  const gpuRaw = env.CONFIDANT_LLAMACPP_GPU?.trim().toLowerCase();
  if (gpuRaw !== undefined && gpuRaw !== '') {
    const gpu = GPU_VALUES[gpuRaw];
    if (gpu === undefined) {
      throw new ModelSpecError(
        `CONFIDANT_LLAMACPP_GPU must be one of ${Object.keys(GPU_VALUES).join(', ')}, got "${env.CONFIDANT_LLAMACPP_GPU}"`,
      );
    }
    options.gpu = gpu;
  }
  const threads = positiveInteger({ env, name: 'CONFIDANT_LLAMACPP_THREADS' });
  if (threads !== undefined) options.threads = threads;
  const contextSize = positiveInteger({ env, name: 'CONFIDANT_LLAMACPP_CONTEXT_SIZE' });
  if (contextSize !== undefined) options.contextSize = contextSize;
  const sequences = positiveInteger({ env, name: 'CONFIDANT_LLAMACPP_SEQUENCES' });
  if (sequences !== undefined) options.sequences = sequences;
  return options;
}

/** Local GGUF files through the optional peer `node-llama-cpp` (CPU unless CONFIDANT_LLAMACPP_GPU says otherwise). */
export const llamacppProvider: ProviderDefinition = {
  id: 'llamacpp',
  description: 'Local GGUF model file via the optional package node-llama-cpp (CPU). The model id is the file path.',
  example: 'llamacpp:/models/qwen3-4b-q4.gguf',
  acceptsBaseURL: false,
  supportsSeed: true,
  probe: localFileProbe,
  create: ({ spec, env }) => createLlamaCppChatModel({ modelPath: spec.modelId, ...llamaCppEnvOptions(env ?? {}) }),
};
