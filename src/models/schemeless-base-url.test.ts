import { describe, expect, it } from 'vitest';
import { parseModelSpec } from './parse-model-spec.js';
import { schemelessBaseURL } from './schemeless-base-url.js';

const check = (spec: string) => schemelessBaseURL(parseModelSpec(spec));

describe('schemelessBaseURL', () => {
  it('spots a host and port written without http:// at the end of the model id', () => {
    expect(check('vllm:Qwen/Qwen3-4B@127.0.0.1:8000/v1')).toEqual({
      modelId: 'Qwen/Qwen3-4B',
      baseURL: 'http://127.0.0.1:8000/v1',
    });
    expect(check('openai-compatible:m@gpu-box.lan:8080/v1')).toEqual({
      modelId: 'm',
      baseURL: 'http://gpu-box.lan:8080/v1',
    });
    expect(check('ollama:qwen3:32b@localhost')).toEqual({ modelId: 'qwen3:32b', baseURL: 'http://localhost' });
  });

  it('leaves well-formed specs and ids that merely contain @ alone', () => {
    expect(check('vllm:Qwen/Qwen3-4B@http://127.0.0.1:8000/v1')).toBeUndefined();
    expect(check('ollama:qwen3:32b')).toBeUndefined();
    expect(check('openai-compatible:team@release')).toBeUndefined();
  });
});
