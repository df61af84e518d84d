import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seededRandom } from '../../src/spec/seeded-random.js';
import { digestOf, type GgufTensor, type GgufValue, writeGguf } from './gguf-writer.js';

// A tiny llama-architecture model for tests of the llamacpp provider: real GGUF, real llama.cpp
// inference, a few hundred KB, produced here from a seed (no weights are downloaded). Its output
// is gibberish by construction, but readable gibberish: the output layer lets only whole-word
// tokens win, so generations are runs of English words, and it never emits an end-of-turn token,
// so a generation always runs to its token limit (tests can rely on exact lengths).
//
// How the suppression works: channel 0 of every token embedding is 1 and no layer writes to it
// (row 0 of attn_output and ffn_down is zero), so after the final norm channel 0 is always
// positive; suppressed tokens have a large negative weight on channel 0 in the output matrix.

/** The shape and seed of a tiny model; every field is part of the cache key. */
export type TinyLlamaOptions = {
  seed: number;
  embeddingLength: number;
  blockCount: number;
  headCount: number;
  headCountKv: number;
  feedForwardLength: number;
  contextLength: number;
};

export const TINY_LLAMA_DEFAULTS: TinyLlamaOptions = {
  seed: 17,
  embeddingLength: 64,
  blockCount: 2,
  headCount: 4,
  headCountKv: 2,
  feedForwardLength: 128,
  contextLength: 4096,
};

/** ChatML, the template node-llama-cpp and llama.cpp recognise without special handling. */
export const TINY_CHAT_TEMPLATE =
  "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

/** Words the model can say; each is one token, reachable by merges through its prefixes. */
const WORDS = [
  'the',
  'a',
  'to',
  'of',
  'and',
  'is',
  'in',
  'you',
  'it',
  'that',
  'for',
  'not',
  'can',
  'no',
  'yes',
  'share',
  'secret',
  'private',
  'note',
  'patient',
  'doctor',
  'code',
  'address',
  'salary',
  'please',
  'sorry',
  'here',
  'what',
  'who',
  'tell',
  'know',
  'keep',
  'safe',
  'name',
  'friend',
  'work',
  'home',
  'day',
  'time',
  'answer',
];

/** The words the tiny model says: every generated token is one of them, after a space. */
export const tinyLlamaWords: readonly string[] = WORDS;

// SentencePiece token types, as llama.cpp numbers them.
const TOKEN_TYPE = { normal: 1, unknown: 2, control: 3, byte: 6 } as const;
const SPACE = '\u2581';

type Vocabulary = { tokens: string[]; scores: number[]; types: number[]; spoken: Set<number> };

/** Specials, 256 byte-fallback tokens, every printable ASCII character, then the word pieces. */
function buildVocabulary(): Vocabulary {
  const tokens: string[] = [];
  const scores: number[] = [];
  const types: number[] = [];
  const spoken = new Set<number>();
  const add = (text: string, type: number, score = 0) => {
    tokens.push(text);
    scores.push(score);
    types.push(type);
    return tokens.length - 1;
  };
  add('<unk>', TOKEN_TYPE.unknown);
  add('<s>', TOKEN_TYPE.control);
  add('</s>', TOKEN_TYPE.control);
  add('<|im_start|>', TOKEN_TYPE.control);
  add('<|im_end|>', TOKEN_TYPE.control);
  for (let byte = 0; byte < 256; byte++) {
    add(`<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`, TOKEN_TYPE.byte);
  }
  add(SPACE, TOKEN_TYPE.normal, -1);
  for (let code = 33; code < 127; code++) add(String.fromCharCode(code), TOKEN_TYPE.normal, -1);
  const seen = new Set(tokens);
  for (const word of WORDS) {
    const piece = `${SPACE}${word}`;
    // Longer pieces score higher, so SentencePiece merges prefer them.
    for (let length = 2; length <= piece.length; length++) {
      const prefix = piece.slice(0, length);
      if (seen.has(prefix)) continue;
      seen.add(prefix);
      add(prefix, TOKEN_TYPE.normal, length);
    }
    spoken.add(tokens.indexOf(piece));
  }
  return { tokens, scores, types, spoken };
}

/** The metadata and tensors of the model, without encoding them. */
export function tinyLlamaModel(options: TinyLlamaOptions = TINY_LLAMA_DEFAULTS): {
  metadata: Record<string, GgufValue>;
  tensors: GgufTensor[];
  vocabularySize: number;
} {
  const { embeddingLength: n, feedForwardLength: ff, headCount, headCountKv } = options;
  const headDim = n / headCount;
  if (!Number.isInteger(headDim)) throw new Error('embeddingLength must be a multiple of headCount');
  const kv = headDim * headCountKv;
  const vocabulary = buildVocabulary();
  const vocab = vocabulary.tokens.length;
  const random = seededRandom(options.seed);
  const uniform = (scale: number) => (random.next() * 2 - 1) * scale;
  /** A [columns, rows] matrix with entries of variance 1/columns, so activations keep their scale. */
  const matrix = (columns: number, rows: number, { zeroRow }: { zeroRow?: number } = {}) => {
    const data = new Float32Array(columns * rows);
    const scale = Math.sqrt(3 / columns);
    for (let row = 0; row < rows; row++) {
      for (let column = 0; column < columns; column++) {
        data[row * columns + column] = row === zeroRow ? 0 : uniform(scale);
      }
    }
    return data;
  };
  const ones = (length: number) => new Float32Array(length).fill(1);

  const embedding = new Float32Array(n * vocab);
  for (let token = 0; token < vocab; token++) {
    embedding[token * n] = 1;
    for (let column = 1; column < n; column++) embedding[token * n + column] = uniform(0.5);
  }
  const output = new Float32Array(n * vocab);
  for (let token = 0; token < vocab; token++) {
    output[token * n] = vocabulary.spoken.has(token) ? 0 : -200;
    for (let column = 1; column < n; column++) output[token * n + column] = uniform(0.25);
  }

  const tensors: GgufTensor[] = [
    { name: 'token_embd.weight', dims: [n, vocab], data: embedding },
    { name: 'output_norm.weight', dims: [n], data: ones(n) },
    { name: 'output.weight', dims: [n, vocab], data: output },
  ];
  for (let block = 0; block < options.blockCount; block++) {
    const name = (part: string) => `blk.${block}.${part}.weight`;
    tensors.push(
      { name: name('attn_norm'), dims: [n], data: ones(n) },
      { name: name('attn_q'), dims: [n, n], data: matrix(n, n) },
      { name: name('attn_k'), dims: [n, kv], data: matrix(n, kv) },
      { name: name('attn_v'), dims: [n, kv], data: matrix(n, kv) },
      { name: name('attn_output'), dims: [n, n], data: matrix(n, n, { zeroRow: 0 }) },
      { name: name('ffn_norm'), dims: [n], data: ones(n) },
      { name: name('ffn_gate'), dims: [n, ff], data: matrix(n, ff) },
      { name: name('ffn_up'), dims: [n, ff], data: matrix(n, ff) },
      { name: name('ffn_down'), dims: [ff, n], data: matrix(ff, n, { zeroRow: 0 }) },
    );
  }

  const u32 = (value: number): GgufValue => ({ type: 'uint32', value });
  const metadata: Record<string, GgufValue> = {
    'general.architecture': { type: 'string', value: 'llama' },
    'general.name': { type: 'string', value: 'confidant tiny llama (test fixture, random weights)' },
    'general.file_type': u32(0),
    'llama.context_length': u32(options.contextLength),
    'llama.embedding_length': u32(n),
    'llama.block_count': u32(options.blockCount),
    'llama.feed_forward_length': u32(ff),
    'llama.attention.head_count': u32(headCount),
    'llama.attention.head_count_kv': u32(headCountKv),
    'llama.attention.layer_norm_rms_epsilon': { type: 'float32', value: 1e-5 },
    'llama.rope.dimension_count': u32(headDim),
    'llama.vocab_size': u32(vocab),
    'tokenizer.ggml.model': { type: 'string', value: 'llama' },
    'tokenizer.ggml.tokens': { type: 'array', itemType: 'string', values: vocabulary.tokens },
    'tokenizer.ggml.scores': { type: 'array', itemType: 'float32', values: vocabulary.scores },
    'tokenizer.ggml.token_type': { type: 'array', itemType: 'int32', values: vocabulary.types },
    'tokenizer.ggml.bos_token_id': u32(1),
    'tokenizer.ggml.eos_token_id': u32(4),
    'tokenizer.ggml.unknown_token_id': u32(0),
    'tokenizer.ggml.padding_token_id': u32(2),
    'tokenizer.ggml.add_bos_token': { type: 'bool', value: true },
    'tokenizer.ggml.add_eos_token': { type: 'bool', value: false },
    'tokenizer.chat_template': { type: 'string', value: TINY_CHAT_TEMPLATE },
  };
  return { metadata, tensors, vocabularySize: vocab };
}

/** The builders' own source, so that editing either file builds a new model. */
function builderSource(): string {
  return ['./tiny-llama-gguf.ts', './gguf-writer.ts']
    .map((file) => readFileSync(fileURLToPath(new URL(file, import.meta.url)), 'utf8'))
    .join('\n');
}

/**
 * The path of the tiny model's GGUF file, built on first use and cached under the system temp
 * directory by a digest of its options and of the builders' source, so parallel test workers and
 * later runs share one file. Written to a temporary name and renamed, so a reader never sees a
 * half-written file.
 */
export function tinyLlamaGguf(options: Partial<TinyLlamaOptions> = {}): string {
  const resolved = { ...TINY_LLAMA_DEFAULTS, ...options };
  const directory = join(tmpdir(), 'confidant-tiny-gguf');
  const path = join(directory, `tiny-llama-${digestOf({ source: builderSource(), ...resolved })}.gguf`);
  if (existsSync(path)) return path;
  mkdirSync(directory, { recursive: true });
  const partial = `${path}.${process.pid}.partial`;
  writeFileSync(partial, writeGguf(tinyLlamaModel(resolved)));
  renameSync(partial, path);
  return path;
}
