import { describe, expect, it } from 'vitest';
import { tinyWorld } from './__fixtures__/tiny-community.js';
import { ownerRetriever, type RetrievalSetup } from './owner-retriever.js';

const asOf = '2024-12-31T23:59:59.999Z';
const bm25: RetrievalSetup = { retriever: 'bm25', chunking: { kind: 'message' }, asOf };

describe('ownerRetriever', () => {
  it("indexes the owner's footprint up to the conversation time, once per setup", async () => {
    const world = tinyWorld();
    const first = ownerRetriever({ world, ownerId: 'ana', setup: bm25 });
    expect(ownerRetriever({ world, ownerId: 'ana', setup: bm25 })).toBe(first);
    // chat-1 (3) + chat-2 (2) + group-1 (2) + ai-1 (2) + blog-1 (1) + purchase-1 (1); chat-3 is after asOf.
    expect((await first).chunkCount).toBe(11);
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

  it('searches by vector with a resolved embedder spec', async () => {
    const world = tinyWorld();
    const vector = await ownerRetriever({
      world,
      ownerId: 'ana',
      setup: { retriever: 'vector', embedder: 'hashing:64', chunking: { kind: 'message' }, asOf },
    });
    expect(vector).toMatchObject({ kind: 'vector', chunkCount: 11 });
    expect(vector.embedderId).toMatch(/hashing/);
    const found = await vector.retriever.search({ query: 'sourdough starter Gus', k: 1 });
    expect(found.map((chunk) => chunk.id)).toEqual(['blog-1#p1']);
  });

  it('forgets a failed build so a later sample can retry', async () => {
    const world = tinyWorld();
    const setup: RetrievalSetup = {
      retriever: 'vector',
      embedder: 'nosuch:model',
      chunking: { kind: 'message' },
      asOf,
    };
    await expect(ownerRetriever({ world, ownerId: 'ana', setup })).rejects.toThrow(/nosuch/);
    expect(world.memo.size).toBe(0);
  });
});
