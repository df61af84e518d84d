import { describe, expect, it } from 'vitest';
import { ModelSpecError } from '../spec/errors.js';
import { parseModelSpec, parseRoleBinding, redactEndpoint, redactSpec } from './parse-model-spec.js';

describe('parseModelSpec', () => {
  it('splits provider and model', () => {
    expect(parseModelSpec('openai:gpt-4o-mini')).toEqual({ provider: 'openai', modelId: 'gpt-4o-mini', baseURLs: [] });
  });

  it('keeps colons in the model id', () => {
    expect(parseModelSpec('ollama:qwen3:32b')).toEqual({ provider: 'ollama', modelId: 'qwen3:32b', baseURLs: [] });
  });

  it('keeps @ in the model id when it does not start a URL', () => {
    expect(parseModelSpec('vllm:org/model@rev2')).toEqual({
      provider: 'vllm',
      modelId: 'org/model@rev2',
      baseURLs: [],
    });
  });

  it('reads a base-URL list from the last @ followed by http(s)://', () => {
    expect(parseModelSpec('vllm:meta-llama/Llama-3.3-70B-Instruct@http://h1:8000/v1,https://h2:8000/v1')).toEqual({
      provider: 'vllm',
      modelId: 'meta-llama/Llama-3.3-70B-Instruct',
      baseURLs: ['http://h1:8000/v1', 'https://h2:8000/v1'],
    });
    expect(parseModelSpec('openai-compatible:a@b@http://host:1/v1')).toEqual({
      provider: 'openai-compatible',
      modelId: 'a@b',
      baseURLs: ['http://host:1/v1'],
    });
  });

  it('refuses credentials in a base URL, naming the environment variable and never echoing the secret', () => {
    const refused = (spec: string): string => {
      try {
        parseModelSpec(spec);
      } catch (error) {
        expect(error).toBeInstanceOf(ModelSpecError);
        return (error as Error).message;
      }
      throw new Error(`accepted ${spec}`);
    };
    const userinfo = refused('openai-compatible:a@b@http://u:CANARY-1@host:1/v1');
    expect(userinfo).toBe(
      'invalid model spec "openai-compatible:a@b@http://host:1/v1": base URL "http://host:1/v1" carries user-info credentials (user:password@); credentials in a URL are neither sent nor stored, set the environment variable OPENAI_COMPATIBLE_API_KEY instead',
    );
    const query = refused('vllm:m@http://h:8000/v1?api_key=CANARY-2');
    expect(query).toContain('carries the query parameter "api_key"');
    expect(query).toContain('VLLM_API_KEY');
    expect(refused('openai:gpt-4o@https://h/v1?X-Api-Key=CANARY-3')).toContain('OPENAI_API_KEY');
    expect(refused('vllm:m@http://h:1/v1,http://h:2/v1?token=CANARY-4')).toContain('"token"');
    expect(refused('vllm:m@http://u:CANARY-5@h:1/v1,ftp://x')).not.toContain('CANARY');
    for (const message of [userinfo, query]) expect(message).not.toContain('CANARY');
    expect(parseModelSpec('openai:gpt-4o@https://h/v1?api-version=2024-06-01').baseURLs).toEqual([
      'https://h/v1?api-version=2024-06-01',
    ]);
  });

  it('keeps the responses/ prefix and inner spaces in the model id', () => {
    expect(parseModelSpec('openai:responses/gpt-5').modelId).toBe('responses/gpt-5');
    expect(parseModelSpec('mock:fixed/Yes, share it.').modelId).toBe('fixed/Yes, share it.');
  });

  it.each([
    ['gpt-4o', 'no ":"'],
    [':gpt-4o', 'provider ""'],
    ['OpenAI:gpt-4o', 'provider "OpenAI"'],
    ['openai:', 'model id is empty'],
    ['vllm:@http://h:1/v1', 'model id is empty'],
    ['vllm:m@http://h:1/v1,', 'base URL in the list is empty'],
    ['vllm:m@http://h:1/v1,ftp://x', 'must use http or https'],
    ['vllm:m@http://', 'not a valid URL'],
  ])('rejects %s with the expected syntax', (spec, problem) => {
    const error = (() => {
      try {
        parseModelSpec(spec);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ModelSpecError);
    const message = (error as ModelSpecError).message;
    expect(message).toContain(problem);
    expect(message).toContain('provider:model[@baseURL[,baseURL…]]');
    expect((error as ModelSpecError).userError).toBe(true);
  });
});

describe('parseRoleBinding', () => {
  it('reads role=spec', () => {
    expect(parseRoleBinding('judge=openai:gpt-4o')).toEqual({ role: 'judge', spec: 'openai:gpt-4o' });
    expect(parseRoleBinding('agent-a=ollama:qwen3:32b')).toEqual({ role: 'agent-a', spec: 'ollama:qwen3:32b' });
  });

  it('binds a bare spec to the agent role', () => {
    expect(parseRoleBinding('anthropic:claude-sonnet-4-5')).toEqual({
      role: 'agent',
      spec: 'anthropic:claude-sonnet-4-5',
    });
  });

  it('does not split on = inside a URL query', () => {
    expect(parseRoleBinding('openai-compatible:m@http://h:1/v1?x=1')).toEqual({
      role: 'agent',
      spec: 'openai-compatible:m@http://h:1/v1?x=1',
    });
    expect(parseRoleBinding('judge=openai-compatible:m@http://h:1/v1?x=1')).toEqual({
      role: 'judge',
      spec: 'openai-compatible:m@http://h:1/v1?x=1',
    });
  });

  it('rejects a malformed role or spec', () => {
    expect(() => parseRoleBinding('Judge=openai:gpt-4o')).toThrow(/role "Judge" must match/);
    expect(() => parseRoleBinding('=openai:gpt-4o')).toThrow(ModelSpecError);
    expect(() => parseRoleBinding('judge=gpt-4o')).toThrow(/no ":"/);
  });
});

describe('redactEndpoint', () => {
  it('strips credentials, query and fragment', () => {
    expect(redactEndpoint('https://user:s3cret@example.test:8443/v1?api-key=k#frag')).toBe(
      'https://example.test:8443/v1',
    );
  });

  it('leaves a plain URL as it is', () => {
    expect(redactEndpoint('http://127.0.0.1:8000/v1')).toBe('http://127.0.0.1:8000/v1');
  });

  it('never echoes an unparsable URL', () => {
    expect(redactEndpoint('not a url sk-secret')).toBe('<invalid-url>');
  });
});

describe('redactSpec', () => {
  it('removes URL credentials of any scheme, and credential parameters in pieces that are no URL', () => {
    expect(redactSpec('vllm:m@http://u:pw@h:8000/v1?api-version=2,https://h2/v1?token=t')).toBe(
      'vllm:m@http://h:8000/v1,https://h2/v1',
    );
    expect(redactSpec('openai://@http://pw@h:9')).toBe('openai://@http://h:9/');
    expect(redactSpec('vllm:m@http://h/,x?api_key=k&v=1')).toBe('vllm:m@http://h/,x?api_key=…&v=1');
    expect(redactSpec('judge=ollama:qwen3:32b')).toBe('judge=ollama:qwen3:32b');
  });

  it('keeps a credential out of the errors of a spec whose URL has another scheme or a bad role', () => {
    expect(() => parseModelSpec('openai:gpt-4o@ftp://u:pw@h')).toThrow(
      'invalid model spec "openai:gpt-4o@ftp://h/": base URL "ftp://h/" must use http or https',
    );
    expect(() => parseRoleBinding('Judge=vllm:m@http://u:pw@h/v1')).toThrow(
      'invalid --model "Judge=vllm:m@http://h/v1": role "Judge" must match',
    );
  });
});
