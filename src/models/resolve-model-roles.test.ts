import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type MockEmbeddingsServer, startMockEmbeddingsServer } from '../../test/support/mock-embeddings-server.js';
import { createHashingEmbedder } from '../retrieval/hashing-embedder.js';
import { resolveEmbeddingModel } from '../retrieval/resolve-embedder.js';
import { MODEL_ROLES } from '../runner/role-registry.js';
import type { EmitEvent } from '../spec/chat-model.js';
import { BudgetExceededError, MissingApiKeyError, ModelSpecError, PlanValidationError } from '../spec/errors.js';
import type { TranscriptEvent, TranscriptEventInput } from '../spec/event.js';
import { resolveModelRoles } from './resolve-model-roles.js';

const dirs: string[] = [];
let server: MockEmbeddingsServer | undefined;
afterEach(async () => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  await server?.close();
  server = undefined;
});

function sample(emitted: TranscriptEventInput[] = []) {
  const emit: EmitEvent = (event) => {
    emitted.push(event);
    return { ...event, id: 'e', time: 't' } as TranscriptEvent;
  };
  return { sampleId: 's1', epoch: 1, emit, signal: new AbortController().signal };
}
const ask = (content: string) => ({ messages: [{ role: 'user' as const, content }], settings: {} });
const base = { env: {}, cacheDir: null, cacheReads: true };

describe('resolveModelRoles', () => {
  it('resolves mock bindings into working, evented models with a secret-free description', async () => {
    const resolved = await resolveModelRoles({
      roles: MODEL_ROLES,
      ...base,
      bindings: [
        { role: 'agent', spec: 'mock:echo' },
        { role: 'judge', spec: 'mock:fixed/yes' },
        { role: 'judge', spec: 'mock:refuse' },
      ],
      settings: { agent: { temperature: '0.5', stop: 'END' } },
    });
    const emitted: TranscriptEventInput[] = [];
    const roles = resolved.factory(sample(emitted));
    expect((await roles.model('agent').generate(ask('hi'))).text).toBe('hi');
    expect((await roles.model('judge').generate(ask('verdict?'))).text).toBe('yes');
    expect(roles.ensemble('judge')).toHaveLength(2);
    expect(emitted).toHaveLength(2);
    expect(emitted[0]).toMatchObject({
      type: 'model-call',
      role: 'agent',
      request: { settings: { temperature: 0.5, stop: ['END'] } },
    });
    expect(emitted[1]).toMatchObject({ role: 'judge', request: { settings: { temperature: 0, seed: 0 } }, costUsd: 0 });
    expect(resolved.describe()).toEqual({
      agent: [{ provider: 'mock', modelId: 'echo', endpoints: [], settings: { temperature: 0.5, stop: ['END'] } }],
      judge: [
        { provider: 'mock', modelId: 'fixed/yes', endpoints: [], settings: { temperature: 0, seed: 0 } },
        { provider: 'mock', modelId: 'refuse', endpoints: [], settings: { temperature: 0, seed: 0 } },
      ],
    });
    expect(resolved.ledger.byRole().agent).toMatchObject({ calls: 1, costUsd: 0 });
    resolved.close();
  });

  it('rejects unknown roles, repeated roles and bad settings', async () => {
    await expect(
      resolveModelRoles({ roles: MODEL_ROLES, ...base, bindings: [{ role: 'critic', spec: 'mock:echo' }] }),
    ).rejects.toThrow(/unknown role "critic" .*known roles: agent, agent-<id>, generator/);
    await expect(
      resolveModelRoles({
        roles: MODEL_ROLES,
        ...base,
        bindings: [
          { role: 'agent', spec: 'mock:echo' },
          { role: 'agent', spec: 'mock:refuse' },
        ],
      }),
    ).rejects.toThrow(/bound 2 times \(.*\); only agent-<id>, judge may be bound several times/);
    await expect(
      resolveModelRoles({
        roles: MODEL_ROLES,
        ...base,
        bindings: [{ role: 'agent', spec: 'mock:echo' }],
        settings: { agent: { temprature: 1 } },
      }),
    ).rejects.toThrow(ModelSpecError);
    await expect(
      resolveModelRoles({
        roles: MODEL_ROLES,
        ...base,
        bindings: [{ role: 'agent', spec: 'mock:echo' }],
        settings: { agent: { seed: 'x' } },
      }),
    ).rejects.toThrow(/agent\.seed/);
    await expect(
      resolveModelRoles({
        roles: MODEL_ROLES,
        ...base,
        bindings: [{ role: 'agent', spec: 'mock:echo' }],
        settings: { critic: {} },
      }),
    ).rejects.toThrow(/unknown role "critic"/);
  });

  it('resolves an embedder binding like any role: described, cached, counted and budgeted', async () => {
    server = await startMockEmbeddingsServer({ vectorOf: (text) => [text.length, 1, 0] });
    const cacheDir = mkdtempSync(join(tmpdir(), 'confidant-roles-'));
    dirs.push(cacheDir);
    const resolved = await resolveModelRoles({
      roles: MODEL_ROLES,
      ...base,
      cacheDir,
      resolveEmbeddingModel,
      env: { OPENAI_COMPATIBLE_API_KEY: ' key-123 ', OPENAI_API_KEY: 'not-this-one' },
      bindings: [
        { role: 'agent', spec: 'mock:echo' },
        { role: 'embedder', spec: `openai-compatible:emb@${server.baseURL}` },
      ],
    });
    // One dimension probe at resolution, authorised with the trimmed key of this provider.
    expect(server.calls.map((call) => [call.body.model, call.headers.authorization])).toEqual([
      ['emb', 'Bearer key-123'],
    ]);
    expect(resolved.describe()).toEqual({
      agent: [{ provider: 'mock', modelId: 'echo', endpoints: [], settings: {} }],
      embedder: [
        {
          provider: 'openai-compatible',
          modelId: 'emb',
          endpoints: [server.baseURL],
          settings: { embedderId: 'openai-compatible:emb', dimension: 3 },
        },
      ],
    });
    const first = resolved.factory(sample()).embedder?.();
    expect(first).toMatchObject({ id: 'openai-compatible:emb', dimension: 3 });
    expect(await first?.embed(['abcd', 'x'])).toEqual([Float32Array.from([4, 1, 0]), Float32Array.from([1, 1, 0])]);
    // Another sample asking for the same texts is answered by the response cache.
    const second = resolved.factory({ ...sample(), sampleId: 's2' }).embedder?.();
    expect(await second?.embed(['abcd', 'x'])).toEqual([Float32Array.from([4, 1, 0]), Float32Array.from([1, 1, 0])]);
    expect(await second?.embed([])).toEqual([]);
    expect(server.calls).toHaveLength(2);
    // The mock server reports one token per text.
    expect(resolved.ledger.byRole().embedder).toMatchObject({
      calls: 1,
      cachedCalls: 1,
      inputTokens: 2,
      outputTokens: 0,
    });
    expect(() => resolved.factory(sample()).model('embedder')).toThrow(/embedding model, not a chat model/);
    resolved.close();
  });

  it('a provider that requires a key fails without one, naming the variable', async () => {
    const missing = resolveModelRoles({
      roles: MODEL_ROLES,
      ...base,
      resolveEmbeddingModel,
      env: { OPENAI_API_KEY: '  ' },
      bindings: [{ role: 'embedder', spec: 'openai:text-embedding-3-small@http://127.0.0.1:9/v1' }],
    });
    await expect(missing).rejects.toThrow(MissingApiKeyError);
    await expect(missing).rejects.toThrow(
      'openai:text-embedding-3-small needs an API key: set OPENAI_API_KEY in the environment',
    );
  });

  it('a local embedder needs no key, no network and no connection limit; unsupported providers say what works', async () => {
    const local = await resolveModelRoles({
      roles: MODEL_ROLES,
      ...base,
      resolveEmbeddingModel,
      bindings: [{ role: 'embedder', spec: 'hashing:16' }],
    });
    expect(local.describe().embedder).toEqual([
      { provider: 'hashing', modelId: '16', endpoints: [], settings: { embedderId: 'hashing-v1:16', dimension: 16 } },
    ]);
    const [vector] = (await local.factory(sample()).embedder?.().embed(['hello world'])) ?? [];
    expect(vector).toEqual((await createHashingEmbedder({ dimension: 16 }).embed(['hello world']))[0]);
    // Local providers are free: the call is counted with no tokens reported and no cost.
    expect(local.ledger.byRole().embedder).toMatchObject({ calls: 1, costUsd: 0, unreportedUsageCalls: 1 });
    local.close();
    for (const spec of ['anthropic:claude-x', 'llamacpp:/m.gguf']) {
      const rejected = resolveModelRoles({
        roles: MODEL_ROLES,
        ...base,
        resolveEmbeddingModel,
        bindings: [{ role: 'embedder', spec }],
      });
      await expect(rejected).rejects.toThrow(ModelSpecError);
      await expect(rejected).rejects.toThrow(/has no embedding support here; use one of openai:text-embedding-3-small/);
    }
  });

  it('without an embedder binding, embedder() names the flag to add', async () => {
    const none = await resolveModelRoles({
      roles: MODEL_ROLES,
      ...base,
      bindings: [{ role: 'agent', spec: 'mock:echo' }],
    });
    expect(none.describe().embedder).toBeUndefined();
    expect(() => none.factory(sample()).embedder?.()).toThrow(PlanValidationError);
    none.close();
  });

  it('needs a price for every model under a cost budget', async () => {
    await expect(
      resolveModelRoles({
        roles: MODEL_ROLES,
        ...base,
        bindings: [{ role: 'agent', spec: 'openai-compatible:m@http://127.0.0.1:9/v1' }],
        maxCostUsd: 1,
      }),
    ).rejects.toThrow('add --price openai-compatible:m=<input>/<output>');
    const priced = await resolveModelRoles({
      roles: MODEL_ROLES,
      ...base,
      bindings: [{ role: 'agent', spec: 'openai-compatible:m@http://127.0.0.1:9/v1' }],
      maxCostUsd: 1,
      prices: { 'openai-compatible:m': { inputPerMillionUsd: 1, outputPerMillionUsd: 1 } },
    });
    priced.close();
  });

  it('stops new calls at the token budget but still serves cache hits', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'confidant-roles-'));
    dirs.push(cacheDir);
    const resolved = await resolveModelRoles({
      roles: MODEL_ROLES,
      ...base,
      cacheDir,
      bindings: [{ role: 'agent', spec: 'mock:echo' }],
      maxTokens: 3,
    });
    const agent = resolved.factory(sample()).model('agent');
    await agent.generate(ask('twelve chars'));
    await expect(agent.generate(ask('something new'))).rejects.toBeInstanceOf(BudgetExceededError);
    expect((await agent.generate(ask('twelve chars'))).text).toBe('twelve chars');
    expect(resolved.ledger.byRole().agent).toMatchObject({ calls: 1, cachedCalls: 1, inputTokens: 3, outputTokens: 3 });
    resolved.close();
  });
});
