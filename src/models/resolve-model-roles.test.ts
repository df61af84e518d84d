import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EmitEvent } from '../spec/chat-model.js';
import type { Embedder } from '../spec/embedder.js';
import { BudgetExceededError, ModelSpecError, PlanValidationError } from '../spec/errors.js';
import type { TranscriptEvent, TranscriptEventInput } from '../spec/event.js';
import { resolveModelRoles } from './resolve-model-roles.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
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
    await expect(resolveModelRoles({ ...base, bindings: [{ role: 'critic', spec: 'mock:echo' }] })).rejects.toThrow(
      /unknown role "critic" .*known roles: agent, agent-<id>, generator/,
    );
    await expect(
      resolveModelRoles({
        ...base,
        bindings: [
          { role: 'agent', spec: 'mock:echo' },
          { role: 'agent', spec: 'mock:refuse' },
        ],
      }),
    ).rejects.toThrow(/bound twice; only judge/);
    await expect(
      resolveModelRoles({
        ...base,
        bindings: [{ role: 'agent', spec: 'mock:echo' }],
        settings: { agent: { temprature: 1 } },
      }),
    ).rejects.toThrow(ModelSpecError);
    await expect(
      resolveModelRoles({
        ...base,
        bindings: [{ role: 'agent', spec: 'mock:echo' }],
        settings: { agent: { seed: 'x' } },
      }),
    ).rejects.toThrow(/agent\.seed/);
    await expect(
      resolveModelRoles({ ...base, bindings: [{ role: 'agent', spec: 'mock:echo' }], settings: { critic: {} } }),
    ).rejects.toThrow(/unknown role "critic"/);
  });

  it('rejects an embedder binding: embedders are resolved by the caller, not as chat models', async () => {
    const rejected = resolveModelRoles({
      ...base,
      bindings: [
        { role: 'agent', spec: 'mock:echo' },
        { role: 'embedder', spec: 'openai-compatible:emb@http://127.0.0.1:9/v1' },
      ],
    });
    await expect(rejected).rejects.toThrow(ModelSpecError);
    await expect(rejected).rejects.toThrow(/role "embedder" is an embedding model, not a chat model/);
  });

  it('serves a given embedder to every sample and describes it under role embedder, without secrets', async () => {
    const embedder: Embedder = {
      id: 'openai-compatible:emb',
      dimension: 3,
      embed: async (texts) => texts.map(() => Float32Array.from([1, 0, 0])),
    };
    const resolved = await resolveModelRoles({
      ...base,
      bindings: [{ role: 'agent', spec: 'mock:echo' }],
      embedder,
      embedderSpec: {
        provider: 'openai-compatible',
        modelId: 'emb',
        baseURLs: ['http://user:secret@127.0.0.1:9/v1?key=hidden'],
      },
    });
    expect(resolved.factory(sample()).embedder?.()).toBe(embedder);
    expect(resolved.describe()).toEqual({
      agent: [{ provider: 'mock', modelId: 'echo', endpoints: [], settings: {} }],
      embedder: [
        {
          provider: 'openai-compatible',
          modelId: 'emb',
          endpoints: ['http://127.0.0.1:9/v1'],
          settings: { embedderId: 'openai-compatible:emb', dimension: 3 },
        },
      ],
    });
    resolved.close();

    // Without its spec, the description comes from the embedder's id.
    const bare = await resolveModelRoles({ ...base, bindings: [{ role: 'agent', spec: 'mock:echo' }], embedder });
    expect(bare.describe().embedder).toEqual([
      {
        provider: 'openai-compatible',
        modelId: 'emb',
        endpoints: [],
        settings: { embedderId: 'openai-compatible:emb', dimension: 3 },
      },
    ]);
    bare.close();
    const none = await resolveModelRoles({ ...base, bindings: [{ role: 'agent', spec: 'mock:echo' }] });
    expect(none.describe().embedder).toBeUndefined();
    expect(() => none.factory(sample()).embedder?.()).toThrow(PlanValidationError);
    none.close();
  });

  it('needs a price for every model under a cost budget', async () => {
    await expect(
      resolveModelRoles({
        ...base,
        bindings: [{ role: 'agent', spec: 'openai-compatible:m@http://127.0.0.1:9/v1' }],
        maxCostUsd: 1,
      }),
    ).rejects.toThrow('add --price openai-compatible:m=<input>/<output>');
    const priced = await resolveModelRoles({
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
