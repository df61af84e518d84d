import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { type Chunk, chunkSchema } from '../spec/chunk.js';
import { ConfidantError, DatasetFormatError } from '../spec/errors.js';

/** Bumped when the table layout changes, so an old index file is rebuilt rather than misread. */
export const CHUNK_INDEX_FORMAT = 1;

/**
 * Chunks stored in SQLite with a BM25 full-text index (FTS5) over their text. The retrievers in
 * this folder search it; the vector retriever adds its own table to the same database.
 *
 * Row ids are positions: `chunks[rowid - 1]` is the chunk stored at `rowid`, and every
 * chunk is also held in memory so a ranked row id turns into a Chunk without another query.
 */
export type ChunkIndex = {
  /** The better-sqlite3 handle (in memory unless a file path was given). */
  readonly database: Database.Database;
  /** `:memory:` or the file the index lives in. */
  readonly path: string;
  /** Every chunk, in row-id order. */
  readonly chunks: readonly Chunk[];
  /** The chunk at a row id, or `undefined` outside 1…chunks.length. */
  chunkAt(rowid: number): Chunk | undefined;
  /** Closes the database; the index cannot be searched afterwards. */
  close(): void;
};

// The porter stemmer lets "running" find "run"; unicode61 folds case and (with 2) diacritics.
// The FTS table is external-content: it stores only the inverted index, the text stays in `chunks`.
const SCHEMA = `
create table chunk_index_meta (key text primary key, value text not null);
create table chunks (
  rowid integer primary key,
  id text not null unique,
  text text not null,
  doc_id text not null,
  doc_type text not null,
  owner_id text not null,
  participants text not null,
  time text not null,
  secret_ids text not null
);
create virtual table chunk_fts using fts5(
  text, content = 'chunks', content_rowid = 'rowid', tokenize = 'porter unicode61 remove_diacritics 2'
);
`;

type ChunkRow = {
  rowid: number;
  id: string;
  text: string;
  doc_id: string;
  doc_type: string;
  owner_id: string;
  participants: string;
  time: string;
  secret_ids: string;
};

function validChunks(chunks: readonly unknown[]): Chunk[] {
  const seen = new Set<string>();
  return chunks.map((candidate, position) => {
    const parsed = chunkSchema.safeParse(candidate);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
      throw new DatasetFormatError(`chunk ${position} is malformed${where}: ${issue?.message ?? 'invalid'}`);
    }
    if (seen.has(parsed.data.id)) throw new DatasetFormatError(`duplicate chunk id '${parsed.data.id}'`);
    seen.add(parsed.data.id);
    return parsed.data;
  });
}

function indexOver(database: Database.Database, path: string, chunks: readonly Chunk[]): ChunkIndex {
  return {
    database,
    path,
    chunks,
    chunkAt: (rowid) => (Number.isInteger(rowid) && rowid >= 1 ? chunks[rowid - 1] : undefined),
    close: () => database.close(),
  };
}

/**
 * Builds an index over `chunks` (validated with `chunkSchema`; ids must be unique, else a
 * DatasetFormatError) in memory, or in a new file at `path`. A file that already holds tables
 * is refused: open it with `openChunkIndex` or delete it first.
 */
export function createChunkIndex({
  chunks,
  path = ':memory:',
}: {
  chunks: readonly Chunk[];
  path?: string;
}): ChunkIndex {
  const valid = validChunks(chunks);
  const database = new Database(path);
  try {
    const tables = database.prepare(`select count(*) as n from sqlite_master where type = 'table'`).get() as {
      n: number;
    };
    if (tables.n > 0) {
      throw new ConfidantError(
        `${path} already holds a database: open it with openChunkIndex, or delete it to build a new index`,
        { userError: true },
      );
    }
    database.exec(SCHEMA);
    const insert = database.prepare(
      `insert into chunks (rowid, id, text, doc_id, doc_type, owner_id, participants, time, secret_ids)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    database.transaction(() => {
      database
        .prepare(`insert into chunk_index_meta (key, value) values ('format', ?)`)
        .run(String(CHUNK_INDEX_FORMAT));
      valid.forEach((chunk, position) => {
        const { provenance } = chunk;
        insert.run(
          position + 1,
          chunk.id,
          chunk.text,
          provenance.docId,
          provenance.docType,
          provenance.ownerId,
          JSON.stringify(provenance.participants),
          provenance.time,
          JSON.stringify(provenance.secretIds),
        );
      });
      // One bulk build of the inverted index is much faster than row-by-row triggers.
      database.exec(`insert into chunk_fts (chunk_fts) values ('rebuild')`);
    })();
  } catch (error) {
    database.close();
    throw error;
  }
  return indexOver(database, path, valid);
}

/** Opens an index file written by `createChunkIndex` and loads its chunks into memory. */
export function openChunkIndex({ path }: { path: string }): ChunkIndex {
  if (!existsSync(path)) {
    throw new ConfidantError(`no chunk index at ${path}: build one with createChunkIndex`, { userError: true });
  }
  const database = new Database(path);
  try {
    const format = (() => {
      try {
        const row = database.prepare(`select value from chunk_index_meta where key = 'format'`).get() as
          | { value: string }
          | undefined;
        return row?.value;
      } catch {
        return undefined;
      }
    })();
    if (format !== String(CHUNK_INDEX_FORMAT)) {
      throw new ConfidantError(
        `${path} is not a chunk index of format ${CHUNK_INDEX_FORMAT}${format === undefined ? '' : ` (found format ${format})`}: delete it and build it again`,
        { userError: true },
      );
    }
    const rows = database.prepare('select * from chunks order by rowid').all() as ChunkRow[];
    const chunks = rows.map((row, position): Chunk => {
      if (row.rowid !== position + 1) {
        throw new ConfidantError(`${path}: chunk row ids are not contiguous at ${row.rowid}; rebuild the index`, {
          userError: true,
        });
      }
      return {
        id: row.id,
        text: row.text,
        provenance: {
          docId: row.doc_id,
          docType: row.doc_type,
          ownerId: row.owner_id,
          participants: JSON.parse(row.participants) as string[],
          time: row.time,
          secretIds: JSON.parse(row.secret_ids) as string[],
        },
      };
    });
    return indexOver(database, path, chunks);
  } catch (error) {
    database.close();
    throw error;
  }
}
