import { describe, expect, it } from 'vitest';
import { createModelRolesFactory } from '../../models/model-roles.js';
import { wrapEmbeddingModel } from '../../models/wrap-embedding-model.js';
import { embeddingModelOf } from '../../retrieval/embedder.js';
import { createHashingEmbedder } from '../../retrieval/hashing-embedder.js';
import type { VectorRetriever } from '../../retrieval/vector-retriever.js';
import { MODEL_ROLES } from '../../runner/role-registry.js';
import type { ModelRoles } from '../../spec/chat-model.js';
import type { Embedder } from '../../spec/embedder.js';
import { PlanValidationError } from '../../spec/errors.js';
import type { TranscriptEvent } from '../../spec/event.js';
import { tinyWorld } from './__fixtures__/tiny-community.js';
import { MISSING_VECTOR_EMBEDDER, ownerRetriever, type RetrievalSetup, vectorEmbedder } from './owner-retriever.js';

const asOf = '2024-12-31T23:59:59.999Z';
const bm25: RetrievalSetup = { retriever: 'bm25', chunking: { kind: 'message' }, asOf };

describe('ownerRetriever', () => {
  it("indexes the owner's footprint up to the conversation time, once per setup", async () => {
    const world = tinyWorld();
    const first = await ownerRetriever({ world, ownerId: 'ana', setup: bm25 });
    expect(await ownerRetriever({ world, ownerId: 'ana', setup: bm25 })).toBe(first);
    // chat-1 (3) + chat-2 (2) + group-1 (2) + ai-1 (2) + blog-1 (1) + purchase-1 (1); chat-3 is after asOf.
    expect(first.chunkCount).toBe(11);
    const everything = await ownerRetriever({ world, ownerId: 'ana', setup: { ...bm25, asOf: undefined } });
    expect(everything.chunkCount).toBe(12);
    const ben = await ownerRetriever({ world, ownerId: 'ben', setup: bm25 });
    expect(ben.chunkCount).toBe(3);
    const windows = await ownerRetriever({
      world,
      ownerId: 'ana',
      setup: { ...bm25, chunking: { kind: 'window', size: 2 } },
    });
    expect(windows.chunkCount).toBe(7);
  });

  it('forgets a failed build so a later sample can retry', async () => {
    const world = tinyWorld();
    const working = createHashingEmbedder({ dimension: 16 });
    let calls = 0;
    const flaky: Embedder = {
      id: working.id,
      dimension: working.dimension,
      embed: (texts, options) => {
        calls += 1;
        return calls === 1 ? Promise.reject(new Error('embedder down')) : working.embed(texts, options);
      },
    };
    const setup: RetrievalSetup = { retriever: 'vector', embedder: flaky, chunking: { kind: 'message' }, asOf };
    await expect(ownerRetriever({ world, ownerId: 'ana', setup })).rejects.toThrow('embedder down');
    expect(world.memo.size).toBe(0);
    await expect(ownerRetriever({ world, ownerId: 'ana', setup })).resolves.toMatchObject({ chunkCount: 11 });
  });

  it("searches by vector with the run's embedder role, each caller's queries through its own embedder", async () => {
    const world = tinyWorld();
    const hashing = createHashingEmbedder({ dimension: 64 });
    // Two samples' views of the same role embedder: same id, separate call logs.
    const counted = (log: number[]): Embedder => ({
      ...hashing,
      embed: (texts, options) => {
        log.push(texts.length);
        return hashing.embed(texts, options);
      },
    });
    const firstCalls: number[] = [];
    const secondCalls: number[] = [];
    const setup = (embedder: Embedder): RetrievalSetup => ({
      retriever: 'vector',
      embedder,
      chunking: { kind: 'message' },
      asOf,
    });
    const first = await ownerRetriever({ world, ownerId: 'ana', setup: setup(counted(firstCalls)) });
    expect(first).toMatchObject({ kind: 'vector', chunkCount: 11, embedderId: hashing.id });
    expect(firstCalls).toEqual([11]);
    const second = await ownerRetriever({ world, ownerId: 'ana', setup: setup(counted(secondCalls)) });
    // The chunk vectors are shared: the second sample embeds only its own query.
    const found = await second.retriever.search({ query: 'sourdough starter Gus', k: 1 });
    expect(found.map((chunk) => chunk.id)).toEqual(['blog-1#p1']);
    expect(firstCalls).toEqual([11]);
    expect(secondCalls).toEqual([1]);
    // ... and held once: both samples' retrievers scan the same matrix.
    const matrixOf = (owner: typeof first) => (owner.retriever as VectorRetriever).matrix;
    expect(matrixOf(second)).toBe(matrixOf(first));
    expect(matrixOf(first).values.length).toBe(11 * 64);
  });
});

describe('vectorEmbedder', () => {
  const rolesWith = (embedder?: ReturnType<typeof createHashingEmbedder>): ModelRoles =>
    createModelRolesFactory({
      roles: MODEL_ROLES,
      bindings: {},
      embeddings:
        embedder === undefined
          ? {}
          : {
              embedder: wrapEmbeddingModel({
                model: embeddingModelOf({ embedder, provider: 'hashing', modelId: String(embedder.dimension) }),
                middleware: [],
              }),
            },
    })({
      sampleId: 's',
      epoch: 1,
      emit: (event) => ({ ...event, id: 'e', time: 't' }) as TranscriptEvent,
      signal: new AbortController().signal,
    });

  it('takes the embedder role', async () => {
    const embedder = createHashingEmbedder({ dimension: 8 });
    const role = vectorEmbedder({ models: rolesWith(embedder) });
    expect({ id: role.id, dimension: role.dimension }).toEqual({ id: embedder.id, dimension: 8 });
    expect(await role.embed(['sourdough'])).toEqual(await embedder.embed(['sourdough']));
  });

  it('with neither, says to add --model embedder=<spec> or --set embedder=hashing:384', () => {
    const fake: ModelRoles = { has: () => false, model: () => rolesWith().model('agent'), ensemble: () => [] };
    for (const models of [rolesWith(), fake]) {
      expect(() => vectorEmbedder({ models })).toThrow(PlanValidationError);
      expect(() => vectorEmbedder({ models })).toThrow(MISSING_VECTOR_EMBEDDER);
    }
    expect(MISSING_VECTOR_EMBEDDER).toMatch(/--model embedder=<spec>.* or --set embedder=hashing:384/);
  });
});
