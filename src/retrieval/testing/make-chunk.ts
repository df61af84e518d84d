import type { Chunk, ChunkProvenance } from '../../spec/chunk.js';

/**
 * A chunk for tests: provenance defaults to a 1:1 chat owned by `owner` with `friend`, dated
 * 2024-01-01, without secrets; any field can be overridden.
 */
export function makeChunk({ id, text, ...provenance }: { id: string; text: string } & Partial<ChunkProvenance>): Chunk {
  return {
    id,
    text,
    provenance: {
      docId: `doc-${id}`,
      docType: 'chat',
      ownerId: 'owner',
      participants: ['owner', 'friend'],
      time: '2024-01-01T00:00:00Z',
      secretIds: [],
      ...provenance,
    },
  };
}
