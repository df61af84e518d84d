import { describe, expect, it } from 'vitest';
import { embedVectorMatrix } from './embed-vector-matrix.js';
import { makeChunk } from './testing/make-chunk.js';
import { createTableEmbedder } from './testing/table-embedder.js';

describe('embedVectorMatrix', () => {
  it('embeds in batches into unit rows, leaving zero vectors out, and shows each batch', async () => {
    const table = { a: [3, 4], b: [0, 2], c: [-1, 0] };
    const chunks = ['a', 'zero', 'b', 'c'].map((text) => makeChunk({ id: text, text }));
    const embedder = createTableEmbedder({ table, dimension: 2 });
    const batches: Array<[number, Array<number[] | null>]> = [];
    const matrix = await embedVectorMatrix({
      chunks,
      embedder,
      batchSize: 3,
      onBatch: (start, units) => batches.push([start, units.map((unit) => (unit === null ? null : [...unit]))]),
    });
    expect(embedder.calls).toEqual([['a', 'zero', 'b'], ['c']]);
    expect([...matrix.positions]).toEqual([0, 2, 3]);
    expect([...matrix.values]).toEqual([Math.fround(0.6), Math.fround(0.8), 0, 1, -1, 0]);
    expect(batches).toEqual([
      [0, [[Math.fround(0.6), Math.fround(0.8)], null, [0, 1]]],
      [3, [[-1, 0]]],
    ]);
  });

  it('stops before the next batch once the signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    const embedder = createTableEmbedder({ table: {}, dimension: 2 });
    await expect(
      embedVectorMatrix({
        chunks: [makeChunk({ id: 'a', text: 'a' })],
        embedder,
        batchSize: 1,
        signal: controller.signal,
      }),
    ).rejects.toThrow('stop');
    expect(embedder.calls).toEqual([]);
  });
});
