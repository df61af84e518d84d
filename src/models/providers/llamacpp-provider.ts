import { createLlamaCppChatModel } from '../llamacpp-chat-model.js';
import { localFileProbe } from '../probes/local-file-probe.js';
import type { ProviderDefinition } from '../provider-registry.js';

/** Local GGUF files through the optional peer `node-llama-cpp` (CPU only). */
export const llamacppProvider: ProviderDefinition = {
  id: 'llamacpp',
  description: 'Local GGUF model file via the optional package node-llama-cpp (CPU). The model id is the file path.',
  example: 'llamacpp:/models/qwen3-4b-q4.gguf',
  acceptsBaseURL: false,
  supportsSeed: true,
  probe: localFileProbe,
  create: ({ spec }) => createLlamaCppChatModel({ modelPath: spec.modelId }),
};
