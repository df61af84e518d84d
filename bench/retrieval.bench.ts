// Retrieval benchmark: index build time and top-k query latency (p50/p95) for BM25 (FTS5) and
// sqlite-vec over deterministic synthetic chunks, with exact brute-force cosine as the reference.
// Vectors are 384-dim (MiniLM's width) from the hashing embedder, computed once per size and
// served from memory, so build and query times measure the stores, not the embedder.
// Texts mimic chat: ~40% English stop words, the rest content words from a Zipf law over a
// 20,000-word vocabulary starting at rank 100 (where content words start in real English).
// Queries are 8-20 words, like the last messages of a conversation. Latency is reported as wall
// time and as CPU time of this process (steadier on a shared machine).
// Usage: npm run bench:retrieval -- [--sizes 1000,10000,100000] [--queries 200] [--k 5]
// The last line of output is JSON with every number (see `Row`).

import { accessControlledRetrievalDefense } from '../src/defenses/access-controlled-retrieval.js';
import { createBruteForceRetriever } from '../src/retrieval/brute-force-retriever.js';
import { createChunkIndex } from '../src/retrieval/chunk-index.js';
import type { Embedder } from '../src/retrieval/embedder.js';
import { ENGLISH_STOP_WORDS } from '../src/retrieval/fts5-query.js';
import { createFts5Retriever } from '../src/retrieval/fts5-retriever.js';
import { createHashingEmbedder } from '../src/retrieval/hashing-embedder.js';
import { createVectorRetriever } from '../src/retrieval/vector-retriever.js';
import type { AccessContext, Chunk, ChunkFilter, Retriever } from '../src/spec/chunk.js';

function option(name: string, fallback: string): string {
  const args = process.argv.slice(2);
  const index = args.findIndex((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`));
  if (index < 0) return fallback;
  const arg = args[index]!;
  return arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : (args[index + 1] ?? '');
}
function positiveIntegers(name: string, fallback: string): number[] {
  const values = option(name, fallback).split(',').map(Number);
  if (values.length === 0 || values.some((value) => !Number.isInteger(value) || value < 1)) {
    throw new Error(`--${name} needs positive integers separated by commas, got ${option(name, fallback)}`);
  }
  return values;
}

const sizes = positiveIntegers('sizes', '1000,10000,100000');
const queryCount = positiveIntegers('queries', '200')[0]!;
const k = positiveIntegers('k', '5')[0]!;
const DIMENSION = 384;

/** mulberry32: a small seeded generator, so every run builds the same corpus and queries. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

// A 20,000-word synthetic vocabulary of made-up content words, drawn with a Zipf law.
const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'ze', 'pa', 'qu', 'dor', 'fen', 'gal', 'hin'];
const VOCABULARY = Array.from({ length: 20_000 }, (_, index) => {
  let word = '';
  let rest = index + 1;
  while (rest > 0) {
    word += SYLLABLES[rest % SYLLABLES.length];
    rest = Math.floor(rest / SYLLABLES.length);
  }
  return word;
});
const CUMULATIVE = (() => {
  const weights = VOCABULARY.map((_, rank) => 1 / (rank + 100));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  let running = 0;
  return weights.map((weight) => {
    running += weight / total;
    return running;
  });
})();
const STOP_WORDS = [...ENGLISH_STOP_WORDS];
function word(random: () => number): string {
  if (random() < 0.4) return STOP_WORDS[Math.floor(random() * STOP_WORDS.length)]!;
  const draw = random();
  let low = 0;
  let high = CUMULATIVE.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (CUMULATIVE[middle]! < draw) low = middle + 1;
    else high = middle;
  }
  return VOCABULARY[low]!;
}
function words(random: () => number, count: number): string {
  return Array.from({ length: count }, () => word(random)).join(' ');
}

/** n chunks like PrivacyBench's: per-message chat chunks, ~12% carrying one of 50 secrets. */
function syntheticChunks(n: number): Chunk[] {
  const random = seeded(20240601);
  return Array.from({ length: n }, (_, position) => ({
    id: `c${position}`,
    text: `[chat with user${position % 13}, 2024-05-${String((position % 28) + 1).padStart(2, '0')}] ${words(random, 12 + Math.floor(random() * 28))}`,
    provenance: {
      docId: `d${Math.floor(position / 8)}`,
      docType: position % 17 === 0 ? 'ai-chat' : 'chat',
      ownerId: 'owner',
      participants: ['owner', `user${position % 13}`],
      time: `2024-05-${String((position % 28) + 1).padStart(2, '0')}T12:00:00Z`,
      secretIds: random() < 0.12 ? [`s${Math.floor(random() * 50)}`] : [],
    },
  }));
}
function syntheticQueries(count: number): string[] {
  const random = seeded(7);
  return Array.from({ length: count }, () => words(random, 8 + Math.floor(random() * 13)));
}

/** Serves vectors computed once, so the retrievers' times exclude embedding. */
function precomputedEmbedder(vectors: Map<string, Float32Array>, base: Embedder): Embedder {
  return {
    id: base.id,
    dimension: base.dimension,
    embed: async (texts) =>
      texts.map((text) => {
        const vector = vectors.get(text);
        if (!vector) throw new Error('bench: text was not pre-embedded');
        return vector;
      }),
  };
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))]!;
}
type Latency = { p50Ms: number; p95Ms: number; cpuP50Ms: number };
async function latency(retriever: Retriever, queries: string[], filter?: ChunkFilter): Promise<Latency> {
  const options = (query: string) => ({ query, k, ...(filter ? { filter } : {}) });
  // Warm-up (not measured): JIT, statement caches.
  for (const query of queries.slice(0, 20)) await retriever.search(options(query));
  const wall: number[] = [];
  const cpu: number[] = [];
  for (const query of queries) {
    const cpuStart = process.cpuUsage();
    const start = performance.now();
    await retriever.search(options(query));
    wall.push(performance.now() - start);
    const used = process.cpuUsage(cpuStart);
    cpu.push((used.user + used.system) / 1000);
  }
  wall.sort((left, right) => left - right);
  cpu.sort((left, right) => left - right);
  return { p50Ms: percentile(wall, 0.5), p95Ms: percentile(wall, 0.95), cpuP50Ms: percentile(cpu, 0.5) };
}
async function timed<T>(action: () => Promise<T> | T): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await action();
  return { value, ms: performance.now() - start };
}

// Access-controlled retrieval for a requester authorized for no secret: hides the ~12% of
// chunks that carry one (the real defense, time parsing included).
const stranger: AccessContext = { requesterId: 'stranger', at: '2024-06-01T00:00:00Z', isAuthorized: () => false };
const noSecrets: ChunkFilter = (chunk) => accessControlledRetrievalDefense.filter({ chunk, access: stranger });
// A strict filter keeping ~0.5% of chunks, which pushes sqlite-vec into its exact fallback.
const strict: ChunkFilter = (chunk) => Number(chunk.id.slice(1)) % 200 === 0;

type Row = {
  n: number;
  embedMs: number;
  bm25: { buildMs: number } & Latency & { filtered: Latency; strict: Latency };
  sqliteVec: { buildMs: number } & Latency & { filtered: Latency; strict: Latency };
  bruteForce: { buildMs: number } & Latency & { filtered: Latency };
  /** Share of brute-force top-k chunks that sqlite-vec also returned (1 = exact). */
  vecRecallAtK: number;
  /** Brute-force p50 / sqlite-vec p50. */
  vecSpeedupP50: number;
};

const embedder = createHashingEmbedder({ dimension: DIMENSION });
const queries = syntheticQueries(queryCount);
const rows: Row[] = [];
for (const n of sizes) {
  const chunks = syntheticChunks(n);
  const texts = [...chunks.map((chunk) => chunk.text), ...queries];
  const embedded = await timed(() => embedder.embed(texts));
  const vectors = new Map(texts.map((text, index) => [text, embedded.value[index]!]));
  const served = precomputedEmbedder(vectors, embedder);

  const index = await timed(() => createChunkIndex({ chunks }));
  const bm25 = createFts5Retriever({ index: index.value });
  const bm25Plain = await latency(bm25, queries);
  const bm25Filtered = await latency(bm25, queries, noSecrets);
  const bm25Strict = await latency(bm25, queries, strict);

  const vec = await timed(() => createVectorRetriever({ index: index.value, embedder: served, batchSize: 256 }));
  const vecPlain = await latency(vec.value, queries);
  const vecFiltered = await latency(vec.value, queries, noSecrets);
  const vecStrict = await latency(vec.value, queries, strict);

  const brute = await timed(() => createBruteForceRetriever({ chunks, embedder: served, batchSize: 1024 }));
  const brutePlain = await latency(brute.value, queries);
  const bruteFiltered = await latency(brute.value, queries, noSecrets);

  let overlap = 0;
  for (const query of queries) {
    const expected = new Set((await brute.value.search({ query, k })).map((chunk) => chunk.id));
    for (const chunk of await vec.value.search({ query, k })) if (expected.has(chunk.id)) overlap++;
  }
  index.value.close();
  const round = (value: number) => Math.round(value * 1000) / 1000;
  const row: Row = {
    n,
    embedMs: round(embedded.ms),
    bm25: { buildMs: round(index.ms), ...bm25Plain, filtered: bm25Filtered, strict: bm25Strict },
    sqliteVec: { buildMs: round(vec.ms), ...vecPlain, filtered: vecFiltered, strict: vecStrict },
    bruteForce: { buildMs: round(brute.ms), ...brutePlain, filtered: bruteFiltered },
    vecRecallAtK: round(overlap / (queries.length * k)),
    vecSpeedupP50: round(brutePlain.p50Ms / vecPlain.p50Ms),
  };
  rows.push(JSON.parse(JSON.stringify(row, (_key, value) => (typeof value === 'number' ? round(value) : value))));
}

const pad = (value: string, width: number) => value.padStart(width);
const ms = (value: number | undefined) => (value === undefined ? '-' : value.toFixed(3));
console.log(
  `retrieval benchmark: top-${k}, ${queries.length} queries, ${DIMENSION}-dim hashing vectors, node ${process.version}`,
);
console.log('times in ms; "cpu" is this process\'s CPU time; filtered = acr for a stranger; strict keeps 0.5%');
const titles = ['n', 'store', 'build', 'p50', 'p95', 'cpu p50', 'filt p50', 'filt p95', 'strict p50', 'strict p95'];
console.log(titles.map((title, column) => pad(title, column < 2 ? 7 : 10)).join(' '));
for (const row of rows) {
  const lines: Array<[string, { buildMs: number } & Latency & { filtered: Latency; strict?: Latency }]> = [
    ['bm25', row.bm25],
    ['vec0', row.sqliteVec],
    ['brute', row.bruteForce],
  ];
  for (const [store, values] of lines) {
    const numbers = [
      values.buildMs,
      values.p50Ms,
      values.p95Ms,
      values.cpuP50Ms,
      values.filtered.p50Ms,
      values.filtered.p95Ms,
      values.strict?.p50Ms,
      values.strict?.p95Ms,
    ];
    console.log([pad(String(row.n), 7), pad(store, 7), ...numbers.map((value) => pad(ms(value), 10))].join(' '));
  }
  console.log(
    `${pad(String(row.n), 7)}  embedding ${ms(row.embedMs)} ms; vec0 recall@${k} against brute force ${row.vecRecallAtK}; brute/vec0 p50 ${row.vecSpeedupP50}x`,
  );
}
const at10k = rows.find((row) => row.n === 10_000);
const targets = at10k
  ? {
      bm25P50Under1Ms: { wall: at10k.bm25.p50Ms < 1, cpu: at10k.bm25.cpuP50Ms < 1 },
      sqliteVecP50Under5Ms: { wall: at10k.sqliteVec.p50Ms < 5, cpu: at10k.sqliteVec.cpuP50Ms < 5 },
    }
  : null;
console.log(JSON.stringify({ k, queries: queries.length, dimension: DIMENSION, rows, targetsAt10k: targets }));
