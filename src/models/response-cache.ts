import { createHash } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { GenerateRequest, GenerateResult } from '../spec/chat-model.js';
import type { EmbedResult } from '../spec/embedding-model.js';
import { makeDirectorySync } from '../spec/make-directory.js';
import { redactEndpoint } from './parse-model-spec.js';

/** Bumped when the key recipe or the stored shape changes, so old entries are never misread. */
const CACHE_FORMAT = 1;

/**
 * JSON with object keys sorted at every depth (undefined members dropped, as JSON does), so
 * equal values always serialise to the same string.
 */
export function canonicalJson(value: unknown): string {
  return (
    JSON.stringify(value, (_key: string, member: unknown): unknown => {
      if (member === null || typeof member !== 'object' || Array.isArray(member)) return member;
      const record = member as Record<string, unknown>;
      const sorted: Record<string, unknown> = {};
      for (const key of Object.keys(record).sort()) sorted[key] = record[key];
      return sorted;
    }) ?? 'null'
  );
}

/** What identifies a response. Never API keys, headers or tokens. */
export type CacheKeyInput = {
  provider: string;
  modelId: string;
  /** Base URLs of the model; they are redacted and sorted here. */
  endpointSet: readonly string[];
  request: GenerateRequest;
  epoch: number | undefined;
  namespace: string;
};

/** SHA-256 (hex) of the canonical JSON of the cache-relevant parts of a call. */
export function responseCacheKey(input: CacheKeyInput): string {
  const { request } = input;
  const material = {
    format: CACHE_FORMAT,
    provider: input.provider,
    modelId: input.modelId,
    endpointSet: input.endpointSet.map(redactEndpoint).sort(),
    messages: request.messages,
    tools: request.tools ?? null,
    toolChoice: request.toolChoice ?? null,
    settings: request.settings,
    responseSchema: request.responseSchema ?? null,
    sampleOrdinal: request.sampleOrdinal ?? null,
    // Only the mock judges read it, but a cached mock reply must follow the judge's declared ones.
    ...(request.judgeReplies === undefined ? {} : { judgeReplies: request.judgeReplies }),
    epoch: input.epoch ?? null,
    namespace: input.namespace,
  };
  return createHash('sha256').update(canonicalJson(material)).digest('hex');
}

/** What identifies an embedding call: the model, its vector space, its endpoints and the texts. */
export type EmbeddingCacheKeyInput = {
  provider: string;
  modelId: string;
  embedderId: string;
  endpointSet: readonly string[];
  texts: readonly string[];
  namespace: string;
};

/** SHA-256 (hex) of the canonical JSON of an embedding call (a `kind` keeps it apart from chat keys). */
export function embeddingCacheKey(input: EmbeddingCacheKeyInput): string {
  const material = {
    format: CACHE_FORMAT,
    kind: 'embedding',
    provider: input.provider,
    modelId: input.modelId,
    embedderId: input.embedderId,
    endpointSet: input.endpointSet.map(redactEndpoint).sort(),
    texts: input.texts,
    namespace: input.namespace,
  };
  return createHash('sha256').update(canonicalJson(material)).digest('hex');
}

/** How embeddings are stored: plain number arrays (float32 values round-trip exactly through JSON). */
type StoredEmbeddings = { embeddings: number[][]; usage: EmbedResult['usage'] };

type Row = { created_at: number; result: string };

/**
 * The SQLite response cache (`<directory>/responses.sqlite`, WAL mode so several processes,
 * e.g. shards, can share it). It stores successful results only, keyed by `responseCacheKey`.
 * With `ttlMs`, older entries read as misses.
 */
export class ResponseCache {
  readonly path: string;
  private readonly db: Database.Database;
  private readonly ttlMs: number | undefined;
  private readonly now: () => number;
  private readonly select: Database.Statement<[string], Row>;
  private readonly upsert: Database.Statement<[string, number, string]>;

  private constructor(options: { directory: string; ttlMs?: number; now?: () => number }) {
    makeDirectorySync(options.directory);
    this.path = join(options.directory, 'responses.sqlite');
    this.ttlMs = options.ttlMs;
    this.now = options.now ?? Date.now;
    this.db = new Database(this.path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(
      'CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, created_at INTEGER NOT NULL, result TEXT NOT NULL)',
    );
    this.select = this.db.prepare<[string], Row>('SELECT created_at, result FROM responses WHERE key = ?');
    this.upsert = this.db.prepare<[string, number, string]>(
      'INSERT OR REPLACE INTO responses (key, created_at, result) VALUES (?, ?, ?)',
    );
  }

  /** Opens (creating if needed) the cache in `directory`. */
  static open(options: { directory: string; ttlMs?: number; now?: () => number }): ResponseCache {
    return new ResponseCache(options);
  }

  private read(key: string): unknown {
    const row = this.select.get(key);
    if (!row) return undefined;
    if (this.ttlMs !== undefined && this.now() - row.created_at > this.ttlMs) return undefined;
    try {
      return JSON.parse(row.result);
    } catch {
      return undefined;
    }
  }

  /** The stored result, or `undefined` on a miss, an expired entry or an unreadable row. */
  get(key: string): GenerateResult | undefined {
    return this.read(key) as GenerateResult | undefined;
  }

  /** Stores a successful result (provider metadata included, abort signals never). */
  set(key: string, result: GenerateResult): void {
    this.upsert.run(key, this.now(), JSON.stringify(result));
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
    this.upsert.run(key, this.now(), JSON.stringify(stored));
  }

  /** Number of stored entries. */
  size(): number {
    const row = this.db.prepare<[], { count: number }>('SELECT COUNT(*) AS count FROM responses').get();
    return row?.count ?? 0;
  }

  /** Closes the database; the cache cannot be used afterwards. */
  close(): void {
    if (this.db.open) this.db.close();
  }
}
