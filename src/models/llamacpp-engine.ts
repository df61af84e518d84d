import { open, realpath, stat } from 'node:fs/promises';
import pLimit from 'p-limit';
import { ConfidantError, MissingOptionalDependencyError, ModelSpecError } from '../spec/errors.js';
import {
  type GgufInsightsInstance,
  importLlamaCpp,
  LLAMA_CPP_INSTALL,
  type LlamaChatInstance,
  type LlamaGpu,
  type LlamaInstance,
  type LlamaLogLevel,
  type LlamaModel,
  type LlamaModule,
  type LlamaSequence,
} from './llamacpp-api.js';

/** How to load a GGUF file; every field but `freeRamBytes` is part of the engine's identity. */
export type LlamaCppEngineOptions = {
  /** Path of the `.gguf` file (the model id of a `llamacpp:` spec). */
  modelPath: string;
  /** `false` (default) runs on the CPU; otherwise node-llama-cpp's prebuilt GPU binary of that kind. */
  gpu?: LlamaGpu;
  /** CPU threads per evaluation; default: the cores useful for math (llama.cpp's own default). */
  threads?: number;
  /** Context size in tokens of each sequence; default: the largest that fits, 2,048 to 8,192. */
  contextSize?: number;
  /** Context sequences that generate at the same time; default 1 (see `docs/local-models.md`). */
  sequences?: number;
  /** Free RAM to plan with instead of what the system reports (tests of the too-large path). */
  freeRamBytes?: number;
};

/** A context sequence and the chat session bound to it. */
export type LlamaCppSlot = { sequence: LlamaSequence; chat: LlamaChatInstance };

/**
 * One loaded model with its context, shared by every role that names the same file with the
 * same options. `use` runs a generation on a free sequence, waiting for one when all are busy.
 */
export type LlamaCppEngine = {
  /** The file's real path (symlinks resolved). */
  readonly modelPath: string;
  readonly llama: LlamaInstance;
  readonly model: LlamaModel;
  readonly contextSize: number;
  readonly sequences: number;
  readonly threads: number;
  /** The backend in use: `false` for CPU, else the GPU type. */
  readonly gpu: string | false;
  use<T>(options: { signal?: AbortSignal; run: (slot: LlamaCppSlot) => Promise<T> }): Promise<T>;
};

/** What one process did with a model file: loads and generations (cached calls never get here). */
export type LlamaCppStats = { loads: number; generations: number };

const DEFAULT_CONTEXT = { min: 2048, max: 8192 };
const GGUF_MAGIC = 'GGUF';

const llamas = new Map<string, Promise<LlamaInstance>>();
const engines = new Map<string, Promise<LlamaCppEngine>>();
const stats = new Map<string, LlamaCppStats>();
/** llama.cpp's recent error lines (it explains a failed load only in its log), and how many came. */
const recentErrors: string[] = [];
let errorCount = 0;

function statsFor(modelPath: string): LlamaCppStats {
  let entry = stats.get(modelPath);
  if (!entry) {
    entry = { loads: 0, generations: 0 };
    stats.set(modelPath, entry);
  }
  return entry;
}

/** Loads and generations in this process for the file at `modelPath` (after resolving symlinks). */
export async function llamaCppStats(modelPath: string): Promise<LlamaCppStats> {
  const real = await realpath(modelPath).catch(() => modelPath);
  return { ...statsFor(real) };
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

/** The file exists, is a regular file and starts with the GGUF magic; returns its real path. */
async function checkModelFile(modelPath: string): Promise<string> {
  const info = await stat(modelPath).catch(() => null);
  if (!info) {
    throw new ModelSpecError(
      `llamacpp model file not found: ${modelPath} (the model id of a llamacpp: spec is the path of a local .gguf file, e.g. llamacpp:/models/qwen3-4b-q4.gguf)`,
    );
  }
  if (!info.isFile())
    throw new ModelSpecError(`llamacpp model ${modelPath} is not a file: give the path of a .gguf file`);
  const handle = await open(modelPath, 'r');
  const head = Buffer.alloc(4);
  try {
    await handle.read(head, 0, 4, 0);
  } finally {
    await handle.close();
  }
  if (head.toString('latin1') !== GGUF_MAGIC) {
    throw new ModelSpecError(
      `llamacpp model ${modelPath} is not a GGUF file (it does not start with "GGUF"): llamacpp: needs a model in GGUF format, for example a Q4_K_M .gguf download or the output of llama.cpp's convert_hf_to_gguf.py`,
    );
  }
  return realpath(modelPath);
}

function logger(level: LlamaLogLevel, message: string): void {
  if (level !== 'error' && level !== 'fatal') return;
  recentErrors.push(message.trim());
  errorCount += 1;
  if (recentErrors.length > 8) recentErrors.shift();
}

function getLlamaOnce({ llamaCpp, gpu }: { llamaCpp: LlamaModule; gpu: LlamaGpu }): Promise<LlamaInstance> {
  const key = String(gpu);
  let llama = llamas.get(key);
  if (!llama) {
    // `build: 'never'`: use the prebuilt binaries that came from npm, never compile llama.cpp.
    // Only errors are logged, and only into `recentErrors`: warnings would clutter the CLI.
    llama = llamaCpp
      .getLlama({ gpu, build: 'never', logLevel: llamaCpp.LlamaLogLevel.error, logger })
      .catch((error: unknown) => {
        llamas.delete(key);
        throw new MissingOptionalDependencyError(
          `node-llama-cpp has no usable prebuilt binary${gpu === false ? ' for the CPU' : ` for gpu=${gpu}`} on ${process.platform}-${process.arch}: ${messageOf(error)}; reinstall it with \`${LLAMA_CPP_INSTALL}\`${gpu === false ? '' : ' or run on the CPU (unset CONFIDANT_LLAMACPP_GPU)'}`,
          { cause: error },
        );
      });
    llamas.set(key, llama);
  }
  return llama;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Reads the GGUF header and, on the CPU, refuses before anything is loaded a model whose weights
 * plus the smallest context it would get (the explicit size, else the default minimum) cannot fit
 * in free RAM: llama.cpp would otherwise swap or be killed. Estimates are node-llama-cpp's.
 */
async function checkMemory({
  llamaCpp,
  llama,
  options,
}: {
  llamaCpp: LlamaModule;
  llama: LlamaInstance;
  options: LlamaCppEngineOptions;
}): Promise<{ trainContextSize: number | undefined }> {
  const { modelPath } = options;
  let insights: GgufInsightsInstance;
  try {
    const fileInfo = await llamaCpp.readGgufFileInfo(modelPath, { sourceType: 'filesystem' });
    insights = await llamaCpp.GgufInsights.from(fileInfo, llama);
  } catch (error) {
    throw new ModelSpecError(`llamacpp model ${modelPath} is not a readable GGUF file: ${messageOf(error)}`, {
      cause: error,
    });
  }
  const { trainContextSize } = insights;
  if (llama.gpu !== false) return { trainContextSize };
  const ram = await llama.getRamState();
  const free = options.freeRamBytes ?? ram.free;
  const available = `only ${formatBytes(free)} of ${formatBytes(ram.total)} is free`;
  const weights = (await insights.estimateModelResourceRequirementsV2({ gpuLayers: 0 })).cpuRam;
  if (weights > free) {
    throw new ConfidantError(
      `llamacpp model ${modelPath} needs about ${formatBytes(weights)} of RAM for its weights, but ${available}: use a smaller model or quantization (e.g. Q4_K_M), or free memory`,
      { userError: true },
    );
  }
  const contextSize = options.contextSize ?? Math.min(DEFAULT_CONTEXT.min, trainContextSize ?? DEFAULT_CONTEXT.min);
  const context = (
    await insights.estimateContextResourceRequirementsV2({
      contextSize,
      modelGpuLayers: 0,
      sequences: options.sequences ?? 1,
    })
  ).cpuRam;
  if (weights + context > free) {
    throw new ConfidantError(
      `llamacpp model ${modelPath} needs about ${formatBytes(weights + context)} of RAM for its weights and a context of ${contextSize} tokens, but ${available}: use a smaller context (CONFIDANT_LLAMACPP_CONTEXT_SIZE), a smaller model or quantization, or free memory`,
      { userError: true },
    );
  }
  return { trainContextSize };
}

async function loadEngine(options: LlamaCppEngineOptions & { modelPath: string }): Promise<LlamaCppEngine> {
  const { modelPath } = options;
  const llamaCpp = await importLlamaCpp();
  const llama = await getLlamaOnce({ llamaCpp, gpu: options.gpu ?? false });
  const { trainContextSize } = await checkMemory({ llamaCpp, llama, options });
  const errorsBefore = errorCount;
  let model: LlamaModel;
  try {
    model = await llama.loadModel({ modelPath });
  } catch (error) {
    if (error instanceof llamaCpp.InsufficientMemoryError) throw tooLarge({ modelPath, error });
    const fresh = Math.min(errorCount - errorsBefore, recentErrors.length);
    const reasons = [...new Set(fresh > 0 ? recentErrors.slice(-fresh) : [])].join('; ');
    throw new ModelSpecError(
      `llama.cpp could not load ${modelPath}: ${messageOf(error)}${reasons ? ` (${reasons})` : ''}; check that the file is complete and that node-llama-cpp 3.21.1 supports its architecture`,
      { cause: error },
    );
  }
  statsFor(modelPath).loads += 1;
  const sequences = options.sequences ?? 1;
  const threads = options.threads ?? llama.cpuMathCores;
  const contextSize =
    options.contextSize ??
    (trainContextSize === undefined
      ? DEFAULT_CONTEXT
      : { min: Math.min(DEFAULT_CONTEXT.min, trainContextSize), max: DEFAULT_CONTEXT.max });
  let context: Awaited<ReturnType<LlamaModel['createContext']>>;
  try {
    context = await model.createContext({ contextSize, sequences, threads });
  } catch (error) {
    if (error instanceof llamaCpp.InsufficientMemoryError) throw tooLarge({ modelPath, error });
    throw error;
  }
  const free: LlamaCppSlot[] = [];
  for (let index = 0; index < sequences; index++) {
    const sequence = context.getSequence();
    // Resolving the chat template takes node-llama-cpp a few hundred ms: do it once per model.
    const chatWrapper = free[0]?.chat.chatWrapper;
    free.push({
      sequence,
      chat: new llamaCpp.LlamaChat({ contextSequence: sequence, ...(chatWrapper ? { chatWrapper } : {}) }),
    });
  }
  // At most `sequences` generations at once, each on a sequence of its own; the rest wait in order.
  const limit = pLimit(sequences);
  const entry = statsFor(modelPath);
  return {
    modelPath,
    llama,
    model,
    contextSize: context.contextSize,
    sequences,
    threads,
    gpu: llama.gpu,
    use: ({ signal, run }) =>
      limit(async () => {
        signal?.throwIfAborted();
        const slot = free.pop();
        if (!slot) throw new Error('llamacpp: no free context sequence (this is a bug)');
        try {
          entry.generations += 1;
          return await run(slot);
        } finally {
          free.push(slot);
        }
      }),
  };
}

function tooLarge({ modelPath, error }: { modelPath: string; error: unknown }): ConfidantError {
  return new ConfidantError(
    `llamacpp model ${modelPath} does not fit in memory: ${messageOf(error)}; use a smaller model or quantization, or a smaller context (CONFIDANT_LLAMACPP_CONTEXT_SIZE)`,
    { userError: true, cause: error },
  );
}

/**
 * The engine for a GGUF file, loaded at most once per process for the same file and options
 * (concurrent callers share the one load). Checks, in order: the file exists and is GGUF
 * (`ModelSpecError`), the optional peer is installed (`MissingOptionalDependencyError`), the
 * weights fit in free RAM and the context fits too (user errors naming sizes), llama.cpp loads it
 * (`ModelSpecError` with llama.cpp's reason). A failed load is forgotten, so a retry loads again.
 */
export async function acquireLlamaCppEngine(options: LlamaCppEngineOptions): Promise<LlamaCppEngine> {
  const modelPath = await checkModelFile(options.modelPath);
  const key = JSON.stringify([
    modelPath,
    options.gpu ?? false,
    options.threads,
    options.contextSize,
    options.sequences,
  ]);
  let engine = engines.get(key);
  if (!engine) {
    engine = loadEngine({ ...options, modelPath });
    engines.set(key, engine);
    engine.catch(() => engines.delete(key));
  }
  return engine;
}
