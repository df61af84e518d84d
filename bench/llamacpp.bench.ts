// llamacpp benchmark: generation throughput and load time of the llamacpp provider on a GGUF file
// built by the test support (no download), each as a ratio against node-llama-cpp itself doing the
// same work in the same command: same file, prompts, settings and threads, every call from an empty
// sequence. Machine speed and load cancel out of the ratios; what is left is the cost of our code
// (the adapter and the full wrapper: events, usage, retries, rate limit; cache off). Time is this
// process's CPU time (llama.cpp's threads included), which is steady on a shared machine where
// wall time swings several-fold; wall-time ratios are printed beside. Rounds alternate the two
// sides so drift in machine load hits both; ratios are medians over rounds.
// A second part compares several context sequences with the one-sequence queue (the default) for
// concurrent calls, as a throughput ratio.
// Usage: npm run bench:llamacpp -- [--model tiny|small] [--calls 8] [--tokens 32] [--rounds 5]
//        [--threads 1] [--sequences 2,4]
// `small` is a 40M-parameter random model (~170 MB, built once into the temp directory), where
// matrix work, not per-token overhead, dominates. The last line of output is JSON.

import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Llama, LlamaChat, type LlamaChatResponse } from 'node-llama-cpp';
import { acquireLlamaCppEngine } from '../src/models/llamacpp-engine.js';
import { resolveModelRoles } from '../src/models/resolve-model-roles.js';
import { MODEL_ROLES } from '../src/runner/role-registry.js';
import type { EmitEvent, GenerateSettings } from '../src/spec/chat-model.js';
import type { TranscriptEvent } from '../src/spec/event.js';
import { tinyLlamaGguf } from '../test/support/tiny-llama-gguf.js';

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

const modelName = option('model', 'tiny');
if (modelName !== 'tiny' && modelName !== 'small') throw new Error(`--model is tiny or small, got ${modelName}`);
const calls = positiveIntegers('calls', '8')[0]!;
const tokens = positiveIntegers('tokens', '32')[0]!;
const rounds = positiveIntegers('rounds', '5')[0]!;
const threads = positiveIntegers('threads', '1')[0]!;
const sequenceCounts = positiveIntegers('sequences', '2,4');

const modelPath =
  modelName === 'tiny'
    ? tinyLlamaGguf()
    : tinyLlamaGguf({
        embeddingLength: 768,
        blockCount: 6,
        headCount: 12,
        headCountKv: 12,
        feedForwardLength: 2048,
        contextLength: 2048,
      });
const contextSize = 1024;
const settings: GenerateSettings = { maxOutputTokens: tokens, temperature: 0.8, seed: 1 };
const prompts = Array.from(
  { length: calls },
  (_, index) => `Request ${index}: the patient asks for the door code and whether the note is private.`,
);
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const round = (value: number, digits = 3) => Number(value.toFixed(digits));

const work = mkdtempSync(join(tmpdir(), 'confidant-bench-llamacpp-'));
let copies = 0;
/** A fresh copy of the file, so that our engine cache never answers a load. */
function freshCopy(): string {
  const path = join(work, `model-${copies++}.gguf`);
  copyFileSync(modelPath, path);
  return path;
}

/** One load as a rate (loads per millisecond), so that its ratio reads like the throughput one. */
async function referenceLoad(): Promise<Rate> {
  const path = freshCopy();
  let loaded: { dispose(): Promise<void> }[] = [];
  const rate = await timed(async () => {
    const model = await llama.loadModel({ modelPath: path });
    const context = await model.createContext({ contextSize, sequences: 1, threads });
    // As ours does: a chat session on the sequence (node-llama-cpp resolves the template here).
    new LlamaChat({ contextSequence: context.getSequence() });
    loaded = [context, model];
    return 1;
  });
  for (const item of loaded) await item.dispose();
  return rate;
}

function oursLoad(): Promise<Rate> {
  const path = freshCopy();
  return timed(async () => {
    await acquireLlamaCppEngine({ modelPath: path, contextSize, threads });
    return 1;
  });
}

// node-llama-cpp alone: one context, one sequence, one LlamaChat, prompts one after another, on
// the same llama.cpp instance as ours (so both sides share its backend and log settings).
// The engine's instance is node-llama-cpp's own Llama, typed locally in src/ (see llamacpp-api.ts).
const llama = (await acquireLlamaCppEngine({ modelPath: freshCopy(), contextSize, threads })).llama as unknown as Llama;
const referenceModel = await llama.loadModel({ modelPath });
const referenceContext = await referenceModel.createContext({ contextSize, sequences: 1, threads });
const referenceSequence = referenceContext.getSequence();
const referenceChat = new LlamaChat({ contextSequence: referenceSequence });

async function referenceGenerate(): Promise<number> {
  let generated = 0;
  for (const prompt of prompts) {
    await referenceSequence.clearHistory();
    const response: LlamaChatResponse = await referenceChat.generateResponse(
      [
        { type: 'user', text: prompt },
        { type: 'model', response: [] },
      ],
      { maxTokens: tokens, temperature: 0.8, seed: 1 },
    );
    if (response.metadata.stopReason !== 'maxTokens') throw new Error('reference: expected maxTokens');
    generated += tokens;
  }
  return generated;
}

let events = 0;
const emit: EmitEvent = (event) => {
  events++;
  return { ...event, id: `e${events}`, time: '' } as TranscriptEvent;
};
const signal = new AbortController().signal;

async function roles({ sequences }: { sequences: number }) {
  return resolveModelRoles({
    roles: MODEL_ROLES,
    bindings: [{ role: 'agent', spec: `llamacpp:${modelPath}` }],
    env: {
      CONFIDANT_LLAMACPP_THREADS: String(threads),
      CONFIDANT_LLAMACPP_CONTEXT_SIZE: String(contextSize),
      CONFIDANT_LLAMACPP_SEQUENCES: String(sequences),
    },
    cacheDir: null,
    cacheReads: false,
  });
}

async function oursGenerate({
  models,
  concurrent,
}: {
  models: Awaited<ReturnType<typeof roles>>;
  concurrent: boolean;
}): Promise<number> {
  const one = async (prompt: string, index: number) => {
    const model = models.factory({ sampleId: `s${index}`, epoch: 1, emit, signal }).model('agent');
    const result = await model.generate({ messages: [{ role: 'user', content: prompt }], settings });
    if (result.usage.outputTokens !== tokens) throw new Error(`ours: expected ${tokens} tokens`);
    return tokens;
  };
  if (concurrent) return (await Promise.all(prompts.map(one))).reduce((sum, count) => sum + count, 0);
  let generated = 0;
  for (const [index, prompt] of prompts.entries()) generated += await one(prompt, index);
  return generated;
}

/** Work per unit of time: by this process's CPU time and by wall time. */
type Rate = { cpu: number; wall: number };

function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

async function timed(run: () => Promise<number>): Promise<Rate> {
  const cpuBefore = cpuMs();
  const started = performance.now();
  const work = await run();
  return { cpu: work / (cpuMs() - cpuBefore), wall: work / (performance.now() - started) };
}

const ratio = (a: Rate, b: Rate): Rate => ({ cpu: a.cpu / b.cpu, wall: a.wall / b.wall });
const medianRate = (rates: Rate[]): Rate => ({
  cpu: round(median(rates.map((rate) => rate.cpu))),
  wall: round(median(rates.map((rate) => rate.wall))),
});

const queued = await roles({ sequences: 1 });
// Warm-up (not measured): first evaluations allocate buffers on both sides.
await referenceGenerate();
await oursGenerate({ models: queued, concurrent: false });

/** Runs both sides, in the order given by the round, and returns ours / reference. */
async function alternate({
  index,
  ours,
  reference,
}: {
  index: number;
  ours: () => Promise<Rate>;
  reference: () => Promise<Rate>;
}) {
  if (index % 2 === 1) {
    const oursRate = await ours();
    return { ours: oursRate, reference: await reference() };
  }
  const referenceRate = await reference();
  return { ours: await ours(), reference: referenceRate };
}

const throughputRatios: Rate[] = [];
const loadRatios: Rate[] = [];
const referenceRates: Rate[] = [];
const loadMs: { ours: number[]; reference: number[] } = { ours: [], reference: [] };
for (let index = 0; index < rounds; index++) {
  const generation = await alternate({
    index,
    ours: () => timed(() => oursGenerate({ models: queued, concurrent: false })),
    reference: () => timed(referenceGenerate),
  });
  referenceRates.push(generation.reference);
  throughputRatios.push(ratio(generation.ours, generation.reference));
  const load = await alternate({ index, ours: oursLoad, reference: referenceLoad });
  loadRatios.push(ratio(load.ours, load.reference));
  loadMs.ours.push(1 / load.ours.wall);
  loadMs.reference.push(1 / load.reference.wall);
}

// Several sequences against the queue, all calls at once, through the provider both times.
const sequenceRatios: Record<string, Rate> = {};
for (const sequences of sequenceCounts) {
  const parallel = await roles({ sequences });
  await oursGenerate({ models: parallel, concurrent: true });
  const ratios: Rate[] = [];
  for (let index = 0; index < rounds; index++) {
    const rates = await alternate({
      index,
      ours: () => timed(() => oursGenerate({ models: parallel, concurrent: true })),
      reference: () => timed(() => oursGenerate({ models: queued, concurrent: true })),
    });
    ratios.push(ratio(rates.ours, rates.reference));
  }
  parallel.close();
  sequenceRatios[String(sequences)] = medianRate(ratios);
}
queued.close();
rmSync(work, { recursive: true, force: true });

const throughputRatio = medianRate(throughputRatios);
const loadRatio = medianRate(loadRatios);
const show = (rate: Rate) => `${rate.cpu} by CPU time (${rate.wall} by wall time)`;
console.log(
  `llamacpp: ${modelName} model, ${calls} calls x ${tokens} tokens, ${rounds} rounds, ${threads} thread(s), context ${contextSize}`,
);
console.log(
  `reference: node-llama-cpp alone at about ${Math.round(1000 * median(referenceRates.map((rate) => rate.wall)))} tokens/s of wall time here now (for scale only)`,
);
console.log(`tokens/s, ours / node-llama-cpp (1 = no overhead): ${show(throughputRatio)}`);
console.log(`loads/s, ours / node-llama-cpp (< 1: our file checks and memory estimates cost): ${show(loadRatio)}`);
console.log(
  `load wall time here now (for scale only): ours ${Math.round(median(loadMs.ours))} ms, node-llama-cpp ${Math.round(median(loadMs.reference))} ms`,
);
for (const [sequences, rate] of Object.entries(sequenceRatios)) {
  console.log(`tokens/s, ${sequences} sequences / the 1-sequence queue, ${calls} concurrent calls: ${show(rate)}`);
}
console.log(
  JSON.stringify({
    model: modelName,
    calls,
    tokens,
    rounds,
    threads,
    throughputRatio,
    loadRatio,
    sequencesVsQueue: sequenceRatios,
  }),
);
