import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { GenerateResult } from '../spec/chat-model.js';
import type { EmbedResult } from '../spec/embedding-model.js';
import { makeDirectorySync } from '../spec/make-directory.js';

/** How embeddings are stored: plain number arrays (float32 values round-trip exactly through JSON). */
type StoredEmbeddings = { embeddings: number[][]; usage: EmbedResult['usage'] };

/** A write not yet committed: the row as it will be stored. */
type PendingRow = { createdAt: number; text: string };

/**
 * The SQLite response cache (`<directory>/responses.sqlite`, WAL mode so several processes,
 * e.g. shards, can share it). It stores successful results only, keyed by `responseCacheKey`.
 * With `ttlMs`, older entries read as misses.
 *
 * Writes are batched: the results stored during one turn of the event loop are committed
 * together in one transaction on the next (`setImmediate`), and on `flush`/`close`. Until then
 * this cache answers them from memory. A transaction is all or nothing, so a process killed
 * mid-batch leaves a readable cache that lacks at most the batch not yet committed (the calls
 * of that last turn are made again on the next run). A batch that fails to commit (e.g. the
 * database stayed locked past the busy timeout) is kept and retried with the next one; `close`
 * throws if it still cannot be written.
 *
 * Lookups of one turn share one read transaction, ended at the end of the turn before that
 * turn's writes are committed: a lookup sees the entries other processes committed before the
 * turn's first lookup, and a reader never blocks their writes (WAL).
 */
export class ResponseCache {
  readonly path: string;
  private readonly db: Database.Database;
  private readonly ttlMs: number | undefined;
  private readonly now: () => number;
  private readonly select: Database.Statement<[string], string>;
  private readonly selectFresh: Database.Statement<[string, number], string>;
  private readonly commit: (rows: Map<string, PendingRow>) => void;
  private readonly beginRead: Database.Statement<[]>;
  private readonly endRead: Database.Statement<[]>;
  private pending = new Map<string, PendingRow>();
  /** Whether this turn's read transaction is open (see `storedText`). */
  private reading = false;
  private scheduled: ReturnType<typeof setImmediate> | undefined;

  private constructor(options: { directory: string; ttlMs?: number; now?: () => number }) {
    makeDirectorySync(options.directory);
    this.path = join(options.directory, 'responses.sqlite');
    this.ttlMs = options.ttlMs;
    this.now = options.now ?? Date.now;
    this.db = new Database(this.path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    // Memory stays flat in the size of the cache: no memory map of the file (a run that reads
    // or writes every row would keep the whole mapped file resident, 20 MB of a 20,000-sample
    // run's RSS) and a 2 MB page cache instead of better-sqlite3's 16 MB default (which filled
    // as the file grew, 14 MB of malloc'd heap at 20,000 rows). Pages past it are re-read from
    // the OS file cache.
    this.db.pragma('mmap_size = 0');
    this.db.pragma('cache_size = -2000');
    this.db.exec(
      'CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, created_at INTEGER NOT NULL, result TEXT NOT NULL)',
    );
    // Only the stored text comes back (no row object); the TTL is applied by SQLite.
    this.select = this.db.prepare<[string], string>('SELECT result FROM responses WHERE key = ?').pluck();
    this.selectFresh = this.db
      .prepare<[string, number], string>('SELECT result FROM responses WHERE key = ? AND created_at >= ?')
      .pluck();
    this.beginRead = this.db.prepare('BEGIN');
    this.endRead = this.db.prepare('COMMIT');
    const upsert = this.db.prepare<[string, number, string]>(
      'INSERT OR REPLACE INTO responses (key, created_at, result) VALUES (?, ?, ?)',
    );
    this.commit = this.db.transaction((rows: Map<string, PendingRow>) => {
      for (const [key, row] of rows) upsert.run(key, row.createdAt, row.text);
    });
  }

  /** Opens (creating if needed) the cache in `directory`. */
  static open(options: { directory: string; ttlMs?: number; now?: () => number }): ResponseCache {
    return new ResponseCache(options);
  }

  private read(key: string): unknown {
    const text = this.storedText(key);
    if (text === undefined) return undefined;
    try {
      return JSON.parse(text);
    } catch {
      return undefined;
    }
  }

  /** The stored text of `key` (pending or committed), unless missing or older than the TTL. */
  private storedText(key: string): string | undefined {
    const queued = this.pending.get(key);
    if (queued === undefined) {
      // The lookups of one turn share one read transaction (ended at the end of the turn, before
      // the turn's writes are committed): a lookup alone in its own transaction pays for taking
      // and releasing WAL read locks, more than half its cost.
      if (!this.reading) {
        this.beginRead.run();
        this.reading = true;
        this.scheduleTurnEnd();
      }
      return this.ttlMs === undefined ? this.select.get(key) : this.selectFresh.get(key, this.now() - this.ttlMs);
    }
    return this.ttlMs !== undefined && this.now() - queued.createdAt > this.ttlMs ? undefined : queued.text;
  }

  private write(key: string, text: string): void {
    this.pending.set(key, { createdAt: this.now(), text });
    this.scheduleTurnEnd();
  }

  /** At the end of this turn of the event loop: the read transaction ends, and pending writes are committed. */
  private scheduleTurnEnd(): void {
    this.scheduled ??= setImmediate(() => {
      this.scheduled = undefined;
      try {
        this.flush();
      } catch {
        // Kept pending: retried with the next batch, and `close` reports it if it persists.
      }
    });
  }

  /** Ends the read transaction of this turn, if one is open. */
  private finishReading(): void {
    if (!this.reading) return;
    this.reading = false;
    if (this.db.inTransaction) this.endRead.run();
  }

  /**
   * Commits every pending write in one transaction now. Throws (keeping them pending) if the
   * database refuses them.
   */
  flush(): void {
    this.finishReading();
    if (this.pending.size === 0) return;
    const rows = this.pending;
    this.pending = new Map();
    try {
      this.commit(rows);
    } catch (error) {
      // Newer writes of the same keys win over the batch being put back.
      for (const [key, row] of this.pending) rows.set(key, row);
      this.pending = rows;
      throw error;
    }
  }

  /** The stored result, or `undefined` on a miss, an expired entry or an unreadable row. */
  get(key: string): GenerateResult | undefined {
    return this.read(key) as GenerateResult | undefined;
  }

  /** Stores a successful result (provider metadata included, abort signals never). */
  set(key: string, result: GenerateResult): void {
    this.write(key, JSON.stringify(result));
  }

  /** The stored embeddings of `embeddingCacheKey`, or `undefined` on a miss, expiry or a malformed row. */
  getEmbeddings(key: string): EmbedResult | undefined {
    const stored = this.read(key) as Partial<StoredEmbeddings> | undefined;
    if (!Array.isArray(stored?.embeddings) || stored.usage === undefined) return undefined;
    return { embeddings: stored.embeddings.map((vector) => Float32Array.from(vector)), usage: stored.usage };
  }

  /** Stores the vectors of one embedding call. */
  setEmbeddings(key: string, result: EmbedResult): void {
    const stored: StoredEmbeddings = {
      embeddings: result.embeddings.map((vector) => Array.from(vector)),
      usage: result.usage,
    };
    this.write(key, JSON.stringify(stored));
  }

  /** Number of stored entries (pending writes are committed first). */
  size(): number {
    this.flush();
    const row = this.db.prepare<[], { count: number }>('SELECT COUNT(*) AS count FROM responses').get();
    return row?.count ?? 0;
  }

  /**
   * Commits pending writes and closes the database; the cache cannot be used afterwards. If the
   * pending writes cannot be committed the database is still closed, and the error is thrown.
   */
  close(): void {
    if (!this.db.open) return;
    clearImmediate(this.scheduled);
    this.scheduled = undefined;
    try {
      this.flush();
    } finally {
      this.db.close();
    }
  }
}
