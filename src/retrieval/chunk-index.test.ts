import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Chunk } from '../spec/chunk.js';
import { ConfidantError, DatasetFormatError } from '../spec/errors.js';
import { createChunkIndex, openChunkIndex } from './chunk-index.js';
import { makeChunk } from './testing/make-chunk.js';

const chunks = [
  makeChunk({ id: 'c1', text: 'dinner on friday', secretIds: ['s1'], participants: ['owner', 'ana'] }),
  makeChunk({ id: 'c2', text: 'gym schedule', docType: 'blog', participants: ['owner'] }),
];

const directories: string[] = [];
function temporaryPath(): string {
  const directory = mkdtempSync(join(tmpdir(), 'confidant-chunk-index-'));
  directories.push(directory);
  return join(directory, 'index.sqlite');
}
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

describe('createChunkIndex', () => {
  it('stores chunks at row ids 1…n and indexes their text for FTS5', () => {
    const index = createChunkIndex({ chunks });
    expect(index.path).toBe(':memory:');
    expect(index.chunks).toEqual(chunks);
    expect(index.chunkAt(1)).toEqual(chunks[0]);
    expect(index.chunkAt(2)).toEqual(chunks[1]);
    expect(index.chunkAt(0)).toBeUndefined();
    expect(index.chunkAt(3)).toBeUndefined();
    const rows = index.database.prepare(`select rowid from chunk_fts where chunk_fts match '"gym"'`).all();
    expect(rows).toEqual([{ rowid: 2 }]);
    const provenance = index.database.prepare('select doc_type, secret_ids from chunks where rowid = 1').get();
    expect(provenance).toEqual({ doc_type: 'chat', secret_ids: '["s1"]' });
    index.close();
  });

  it('rejects malformed chunks and duplicate ids with a DatasetFormatError', () => {
    const broken = { id: 'x', text: 'y', provenance: { docId: 'd' } } as unknown as Chunk;
    expect(() => createChunkIndex({ chunks: [broken] })).toThrow(DatasetFormatError);
    expect(() => createChunkIndex({ chunks: [broken] })).toThrow(/chunk 0 is malformed at provenance\.docType/);
    expect(() => createChunkIndex({ chunks: [chunks[0]!, chunks[0]!] })).toThrow("duplicate chunk id 'c1'");
  });

  it('writes a file that openChunkIndex reads back, and refuses to overwrite it', () => {
    const path = temporaryPath();
    createChunkIndex({ chunks, path }).close();
    const reopened = openChunkIndex({ path });
    expect(reopened.chunks).toEqual(chunks);
    expect(reopened.chunkAt(2)?.id).toBe('c2');
    reopened.close();
    const error = (() => {
      try {
        createChunkIndex({ chunks, path });
      } catch (caught) {
        return caught;
      }
    })();
    expect(ConfidantError.isInstance(error) && error.userError).toBe(true);
    expect((error as Error).message).toContain('already holds a database');
  });

  it('refuses to open a missing file or a file that is not a chunk index', () => {
    const path = temporaryPath();
    expect(() => openChunkIndex({ path })).toThrow(`no chunk index at ${path}`);
    writeFileSync(path, 'not sqlite at all, just text that is long enough to look like a header');
    expect(() => openChunkIndex({ path })).toThrow('is not a chunk index of format 1');
  });
});
