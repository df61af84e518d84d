import { describe, expect, it } from 'vitest';
import { ConfidantError } from '../spec/errors.js';
import { checkEmbeddings } from './embedder.js';

describe('checkEmbeddings', () => {
  const texts = ['a', 'b'];

  it('accepts one finite vector of the right size per text', () => {
    expect(() =>
      checkEmbeddings({ embedderId: 'm', dimension: 2, texts, vectors: [new Float32Array([1, 0]), [0, 1]] }),
    ).not.toThrow();
  });

  it('names the embedder and the first problem', () => {
    expect(() => checkEmbeddings({ embedderId: 'm', dimension: 2, texts, vectors: [[1, 0]] })).toThrow(
      'embedder m returned 1 vectors for 2 texts',
    );
    expect(() => checkEmbeddings({ embedderId: 'm', dimension: 2, texts, vectors: [[1, 0], [1]] })).toThrow(
      'embedder m returned a vector of 1 numbers for text 1; expected 2',
    );
    const error = (() => {
      try {
        checkEmbeddings({
          embedderId: 'm',
          dimension: 2,
          texts,
          vectors: [
            [1, 0],
            [Number.NaN, 0],
          ],
        });
      } catch (caught) {
        return caught;
      }
    })();
    expect(ConfidantError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe('embedder m returned a non-finite number in the vector of text 1');
  });
});
