import { describe, expect, it } from 'vitest';
import { checkEmbedderSpec } from '../retrieval/resolve-embedder.js';
import { MODEL_ROLES } from '../runner/role-registry.js';
import { MissingApiKeyError, ModelSpecError } from '../spec/errors.js';
import { checkModelRoles } from './check-model-roles.js';

describe('checkModelRoles', () => {
  it('refuses what resolving would, without creating a model: provider, base URL, settings, embedder', () => {
    const check =
      (bindings: Array<{ role: string; spec: string }>, settings = {}) =>
      () =>
        checkModelRoles({ roles: MODEL_ROLES, bindings, settings, env: {}, checkEmbeddingSpec: checkEmbedderSpec });
    expect(check([{ role: 'agent', spec: 'acme:x' }])).toThrow(/^unknown provider "acme" in "acme:x"/);
    expect(
      check([
        { role: 'agent', spec: 'vllm:m' },
        { role: 'judge', spec: 'openai-compatible:j' },
      ]),
    ).toThrow('openai-compatible needs a base URL in the spec');
    expect(check([{ role: 'agent', spec: 'mock:echo' }], { agent: { temperature: -1 } })).toThrow(ModelSpecError);
    expect(check([{ role: 'critic', spec: 'mock:echo' }])).toThrow(/^unknown role "critic"/);
    expect(check([{ role: 'embedder', spec: 'anthropic:e' }])).toThrow("provider 'anthropic' has no embedding support");
    expect(check([{ role: 'embedder', spec: 'hashing:0' }])).toThrow(
      'the hashing dimension must be a positive integer',
    );
    expect(check([{ role: 'embedder', spec: 'openai:text-embedding-3-small' }])).toThrow(MissingApiKeyError);
    expect(
      check([
        { role: 'agent', spec: 'mock:echo' },
        { role: 'embedder', spec: 'hashing:64' },
      ])(),
    ).toEqual({});
  });

  it('hands every missing API key to onMissingKey and still throws any other problem', () => {
    const missing: string[] = [];
    const onMissingKey = (error: MissingApiKeyError) => missing.push(error.message);
    checkModelRoles({
      roles: MODEL_ROLES,
      bindings: [
        { role: 'agent', spec: 'anthropic:a' },
        { role: 'judge', spec: 'openai:j' },
        { role: 'embedder', spec: 'openai:e' },
      ],
      env: { ANTHROPIC_API_KEY: ' ' },
      checkEmbeddingSpec: checkEmbedderSpec,
      onMissingKey,
    });
    expect(missing).toEqual([
      'anthropic:a needs an API key: set ANTHROPIC_API_KEY in the environment (for example `export ANTHROPIC_API_KEY=<your key>`)',
      'openai:j needs an API key: set OPENAI_API_KEY in the environment (for example `export OPENAI_API_KEY=<your key>`)',
      'openai:e needs an API key: set OPENAI_API_KEY in the environment (for example `export OPENAI_API_KEY=<your key>`)',
    ]);
    expect(() =>
      checkModelRoles({
        roles: MODEL_ROLES,
        bindings: [
          { role: 'agent', spec: 'openai:a' },
          { role: 'judge', spec: 'acme:j' },
        ],
        env: {},
        onMissingKey,
      }),
    ).toThrow('unknown provider "acme"');
  });
});
