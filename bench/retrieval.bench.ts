// Retrieval benchmark: index build time and top-k query latency (p50/p95) for BM25 (FTS5) and
// vector search over deterministic synthetic chunks, against the memory-bandwidth floor and exact
// search. Vectors are 384-dim (MiniLM's width) from the hashing embedder, computed once per size and
// served from memory, so build and query times measure the stores, not the embedder.
// Texts mimic chat: ~40% English stop words, the rest content words from a Zipf law over a
// 20,000-word vocabulary starting at rank 100 (where content words start in real English).
// Queries are 8-20 words, like the last messages of a conversation. Latency is reported as wall
// time and as CPU time of this process (steadier on a shared machine).
//
// Vector stores measured: `vector` (createVectorRetriever, the production path: one Float32Array
// scored by the WebAssembly SIMD kernel), `jsScan` (the same scan with the JavaScript loop),
// `vec0` (a sqlite-vec KNN query over a vec0 table of the same vectors) and `exact` (the plain
// JavaScript cosine loop: score every row, sort; the reference for recall).
// The floor is the time to stream the n x 384 float32 matrix once on this machine, the faster of a
// plain JavaScript sum over the Float32Array (8 accumulators) and one native pass over its bytes
// (half the time of memcmp against a copy); every vector store's p50 is given as a ratio to it.
// Below ~10k chunks the matrix sits in cache, so the floor is a cache floor, not memory bandwidth.
// Usage: npm run bench:retrieval -- [--sizes 1000,10000,100000] [--queries 200] [--k 5] [--no-vec0]
// The last line of output is JSON with every number (see `Row`).

import * as sqliteVec from 'sqlite-vec';
import { accessControlledRetrievalDefense } from '../src/defenses/access-controlled-retrieval.js';
import { createChunkIndex } from '../src/retrieval/chunk-index.js';
import { normalizeVector } from '../src/retrieval/cosine-similarity.js';
import type { Embedder } from '../src/retrieval/embedder.js';
import { ENGLISH_STOP_WORDS } from '../src/retrieval/fts5-query.js';
import { createFts5Retriever } from '../src/retrieval/fts5-retriever.js';
import { createHashingEmbedder } from '../src/retrieval/hashing-embedder.js';
import { topKScan } from '../src/retrieval/top-k-scan.js';
import { createVectorMatrixBuilder, type VectorMatrix } from '../src/retrieval/vector-matrix.js';
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
/** Wall and CPU time of `run` over `inputs`, after a warm-up of up to 20 (JIT, statement caches). */
async function measured<T>(inputs: readonly T[], run: (input: T) => unknown): Promise<Latency> {
  for (const input of inputs.slice(0, 20)) await run(input);
  const wall: number[] = [];
  const cpu: number[] = [];
  for (const input of inputs) {
    const cpuStart = process.cpuUsage();
    const start = performance.now();
    await run(input);
    wall.push(performance.now() - start);
    const used = process.cpuUsage(cpuStart);
    cpu.push((used.user + used.system) / 1000);
  }
  wall.sort((left, right) => left - right);
  cpu.sort((left, right) => left - right);
  return { p50Ms: percentile(wall, 0.5), p95Ms: percentile(wall, 0.95), cpuP50Ms: percentile(cpu, 0.5) };
}
function latency(retriever: Retriever, queries: string[], filter?: ChunkFilter): Promise<Latency> {
  return measured(queries, (query) => retriever.search({ query, k, ...(filter ? { filter } : {}) }));
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
// A strict filter keeping ~0.5% of chunks: most of the top k must come from far down the ranking.
const strict: ChunkFilter = (chunk) => Number(chunk.id.slice(1)) % 200 === 0;

/** The time to stream the matrix once: the faster of a plain JS sum and one native pass (memcmp / 2). */
async function bandwidthFloor(values: Float32Array, repeats: number) {
  const runs = Array.from({ length: repeats }, (_, run) => run);
  let sink = 0;
  const jsSum = await measured(runs, () => {
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let s4 = 0;
    let s5 = 0;
    let s6 = 0;
    let s7 = 0;
    const end = values.length - (values.length % 8);
    for (let cell = 0; cell < end; cell += 8) {
      s0 += values[cell]!;
      s1 += values[cell + 1]!;
      s2 += values[cell + 2]!;
      s3 += values[cell + 3]!;
      s4 += values[cell + 4]!;
      s5 += values[cell + 5]!;
      s6 += values[cell + 6]!;
      s7 += values[cell + 7]!;
    }
    sink += s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7;
  });
  // memcmp of the matrix against a copy of it reads every byte of both, so half its time is one
  // native pass over the matrix at the machine's memory bandwidth.
  const bytes = Buffer.from(values.buffer, values.byteOffset, values.byteLength);
  const copy = Buffer.from(bytes);
  const compared = await measured(runs, () => {
    if (bytes.compare(copy) !== 0) throw new Error('bench: the copy differs');
  });
  const native: Latency = {
    p50Ms: compared.p50Ms / 2,
    p95Ms: compared.p95Ms / 2,
    cpuP50Ms: compared.cpuP50Ms / 2,
  };
  if (Number.isNaN(sink)) throw new Error('bench: the matrix holds a NaN');
  const floor = native.p50Ms <= jsSum.p50Ms ? native : jsSum;
  return { floor, jsSum, native, megabytes: values.byteLength / 1e6 };
}

/** The plain JavaScript cosine loop over unit rows: score every row, sort (score desc, position asc). */
function exactTopK(matrix: VectorMatrix, query: Float32Array, kept: number, chunks: Chunk[], filter?: ChunkFilter) {
  const { dimension, values, positions } = matrix;
  const scored: Array<{ position: number; score: number }> = [];
  for (let row = 0; row < positions.length; row++) {
    const position = positions[row]!;
    if (filter && !filter(chunks[position]!)) continue;
    let score = 0;
    for (let slot = 0; slot < dimension; slot++) score += values[row * dimension + slot]! * query[slot]!;
    scored.push({ position, score });
  }
  scored.sort((left, right) => right.score - left.score || left.position - right.position);
  return scored.slice(0, kept).map(({ position }) => position);
}

/** Share of exact top-k positions found, and share of queries answered in exactly the same order. */
function agreement(found: number[][], exact: number[][]) {
  let overlap = 0;
  let total = 0;
  let identical = 0;
  found.forEach((positions, query) => {
    const expected = new Set(exact[query]);
    total += expected.size;
    for (const position of positions) if (expected.has(position)) overlap++;
    if (JSON.stringify(positions) === JSON.stringify(exact[query])) identical++;
  });
  return { recallAtK: total === 0 ? 1 : overlap / total, identicalShare: identical / found.length };
}

type VectorStore = Latency & {
  buildMs?: number;
  /** p50 / floor p50, wall and CPU. */
  floorRatio: number;
  cpuFloorRatio: number;
  /** Against the exact search, unfiltered. */
  recallAtK: number;
  identicalShare: number;
  filtered?: Latency;
  strict?: Latency;
};
type Row = {
  n: number;
  embedMs: number;
  floor: Latency & { kind: 'native' | 'js-sum'; megabytes: number; jsSum: Latency; native: Latency };
  bm25: { buildMs: number } & Latency & { filtered: Latency; strict: Latency };
  vector: VectorStore;
  jsScan: VectorStore;
  exact: VectorStore;
  vec0?: VectorStore;
  /** Process RSS and heap after the vector retriever was built, and RSS it added (MB). */
  rssMb: number;
  vectorRssMb: number;
  heapUsedMb: number;
};

const withVec0 = !process.argv.includes('--no-vec0');
const embedder = createHashingEmbedder({ dimension: DIMENSION });
const queries = syntheticQueries(queryCount);
const round = (value: number) => Math.round(value * 1000) / 1000;
const rows: Row[] = [];
for (const n of sizes) {
  const chunks = syntheticChunks(n);
  const texts = [...chunks.map((chunk) => chunk.text), ...queries];
  const embedded = await timed(() => embedder.embed(texts));
  const vectors = new Map(texts.map((text, index) => [text, embedded.value[index]!]));
  const served = precomputedEmbedder(vectors, embedder);
  const queryUnits = queries.map((query) => normalizeVector(vectors.get(query)!)!);

  const index = await timed(() => createChunkIndex({ chunks }));
  const bm25 = createFts5Retriever({ index: index.value });
  const bm25Plain = await latency(bm25, queries);
  const bm25Filtered = await latency(bm25, queries, noSecrets);
  const bm25Strict = await latency(bm25, queries, strict);

  const rssBefore = process.memoryUsage().rss;
  const vec = await timed(() => createVectorRetriever({ index: index.value, embedder: served, batchSize: 256 }));
  const memory = process.memoryUsage();
  const { matrix } = vec.value;
  const floor = await bandwidthFloor(matrix.values, Math.max(20, Math.min(queryCount, 100)));
  const ratios = (measuredLatency: Latency) => ({
    floorRatio: measuredLatency.p50Ms / floor.floor.p50Ms,
    cpuFloorRatio: measuredLatency.cpuP50Ms / floor.floor.cpuP50Ms,
  });
  const exactLists = queryUnits.map((unit) => exactTopK(matrix, unit, k, chunks));
  const positionsOf = (found: Chunk[]) => found.map((chunk) => Number(chunk.id.slice(1)));

  const vecPlain = await latency(vec.value, queries);
  const vecLists: number[][] = [];
  for (const query of queries) vecLists.push(positionsOf(await vec.value.search({ query, k })));
  const vector: VectorStore = {
    buildMs: vec.ms,
    ...vecPlain,
    ...ratios(vecPlain),
    ...agreement(vecLists, exactLists),
    filtered: await latency(vec.value, queries, noSecrets),
    strict: await latency(vec.value, queries, strict),
  };

  const jsBuilder = createVectorMatrixBuilder({ dimension: DIMENSION, capacity: matrix.positions.length, simd: false });
  for (const [row, position] of matrix.positions.entries()) {
    jsBuilder.add(position, matrix.values.subarray(row * DIMENSION, (row + 1) * DIMENSION));
  }
  const jsMatrix = jsBuilder.finish();
  const jsPlain = await measured(queryUnits, (unit) => topKScan({ matrix: jsMatrix, query: unit, k, chunks }));
  const jsLists = queryUnits.map((unit) => topKScan({ matrix: jsMatrix, query: unit, k, chunks }));
  const jsScan: VectorStore = { ...jsPlain, ...ratios(jsPlain), ...agreement(jsLists, exactLists) };

  const exactPlain = await measured(queryUnits.slice(0, Math.min(queryUnits.length, 60)), (unit) =>
    exactTopK(matrix, unit, k, chunks),
  );
  const exact: VectorStore = { ...exactPlain, ...ratios(exactPlain), recallAtK: 1, identicalShare: 1 };

  let vec0: VectorStore | undefined;
  if (withVec0) {
    const database = index.value.database;
    sqliteVec.load(database);
    const built = await timed(() => {
      database.exec(`create virtual table bench_vec0 using vec0(embedding float[${DIMENSION}] distance_metric=cosine)`);
      const insert = database.prepare('insert into bench_vec0 (rowid, embedding) values (?, ?)');
      database.transaction(() => {
        matrix.positions.forEach((position, row) => {
          insert.run(BigInt(position + 1), matrix.values.subarray(row * DIMENSION, (row + 1) * DIMENSION));
        });
      })();
    });
    const knn = database.prepare('select rowid from bench_vec0 where embedding match ? and k = ? order by distance');
    const search = (unit: Float32Array) => (knn.all(unit, k) as Array<{ rowid: number }>).map(({ rowid }) => rowid - 1);
    const plain = await measured(queryUnits, search);
    vec0 = { buildMs: built.ms, ...plain, ...ratios(plain), ...agreement(queryUnits.map(search), exactLists) };
    database.exec('drop table bench_vec0');
  }
  index.value.close();
  const row: Row = {
    n,
    embedMs: embedded.ms,
    floor: {
      kind: floor.floor === floor.native ? 'native' : 'js-sum',
      ...floor.floor,
      megabytes: floor.megabytes,
      jsSum: floor.jsSum,
      native: floor.native,
    },
    bm25: { buildMs: index.ms, ...bm25Plain, filtered: bm25Filtered, strict: bm25Strict },
    vector,
    jsScan,
    exact,
    ...(vec0 ? { vec0 } : {}),
    rssMb: memory.rss / 1e6,
    vectorRssMb: (memory.rss - rssBefore) / 1e6,
    heapUsedMb: memory.heapUsed / 1e6,
  };
  rows.push(JSON.parse(JSON.stringify(row, (_key, value) => (typeof value === 'number' ? round(value) : value))));
}

const pad = (value: string, width: number) => value.padStart(width);
const ms = (value: number | undefined) => (value === undefined ? '-' : value.toFixed(3));
console.log(
  `retrieval benchmark: top-${k}, ${queries.length} queries, ${DIMENSION}-dim hashing vectors, node ${process.version}`,
);
console.log('times in ms; "cpu" is this process\'s CPU time; filtered = acr for a stranger; strict keeps 0.5%');
console.log('x floor = p50 / the floor p50 (wall, cpu); recall@k and "same" (identical ordered top k) against exact');
const titles = [
  'n',
  'store',
  'build',
  'p50',
  'p95',
  'cpu p50',
  'x floor',
  'cpu x fl',
  'recall',
  'same',
  'filt p50',
  'strict p50',
];
console.log(titles.map((title, column) => pad(title, column < 2 ? 7 : 10)).join(' '));
for (const row of rows) {
  console.log(
    `${pad(String(row.n), 7)}  floor: ${row.floor.megabytes} MB once, p50 ${ms(row.floor.p50Ms)} (cpu ${ms(row.floor.cpuP50Ms)}) by ${row.floor.kind}; js sum ${ms(row.floor.jsSum.p50Ms)}, native pass ${ms(row.floor.native.p50Ms)}`,
  );
  const stores: Array<[string, Partial<VectorStore> & Latency & { buildMs?: number }]> = [
    ['bm25', row.bm25],
    ['vector', row.vector],
    ['jsScan', row.jsScan],
    ['exact', row.exact],
    ...(row.vec0 ? [['vec0', row.vec0] as [string, VectorStore]] : []),
  ];
  for (const [store, values] of stores) {
    const numbers = [
      values.buildMs,
      values.p50Ms,
      values.p95Ms,
      values.cpuP50Ms,
      values.floorRatio,
      values.cpuFloorRatio,
      values.recallAtK,
      values.identicalShare,
      values.filtered?.p50Ms,
      values.strict?.p50Ms,
    ];
    console.log([pad(String(row.n), 7), pad(store, 7), ...numbers.map((value) => pad(ms(value), 10))].join(' '));
  }
  console.log(
    `${pad(String(row.n), 7)}  embedding ${ms(row.embedMs)} ms; RSS ${ms(row.rssMb)} MB (+${ms(row.vectorRssMb)} MB for the vector retriever), heap ${ms(row.heapUsedMb)} MB`,
  );
}
const largest = rows.find((row) => row.n === 100_000);
const targets = largest
  ? {
      vectorWithin2xFloorAt100k: { wall: largest.vector.floorRatio <= 2, cpu: largest.vector.cpuFloorRatio <= 2 },
      recallAt5AtLeast099: largest.vector.recallAtK >= 0.99,
    }
  : null;
console.log(JSON.stringify({ k, queries: queries.length, dimension: DIMENSION, rows, targetsAt100k: targets }));
