import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { importOptionalPeer } from '../models/import-optional-peer.js';
import { MissingOptionalDependencyError } from '../spec/errors.js';
import { checkEmbeddings, type Embedder } from './embedder.js';

/**
 * The optional peer and the exact version this adapter was written against (declared in
 * package.json under `peerDependencies`, marked optional in `peerDependenciesMeta`).
 */
export const TRANSFORMERS_PACKAGE = '@huggingface/transformers';
export const TRANSFORMERS_VERSION = '4.3.2';
export const TRANSFORMERS_INSTALL = `npm install ${TRANSFORMERS_PACKAGE}@${TRANSFORMERS_VERSION}`;

/** Files a local transformers.js model directory must hold (weights live under `onnx/`). */
export const TRANSFORMERS_MODEL_FILES = ['config.json', 'tokenizer.json'] as const;

// The few parts of transformers.js this adapter uses, typed locally so that tsc does not need
// the (optional, 475 MB) package to be installed.
type FeatureTensor = { dims: number[]; data: ArrayLike<number> };
type FeatureExtractor = (
  texts: string[],
  options: { pooling: 'mean' | 'cls'; normalize: boolean },
) => Promise<FeatureTensor>;
type TransformersModule = {
  env: { localModelPath: string; allowRemoteModels: boolean; allowLocalModels: boolean };
  pipeline(task: 'feature-extraction', model: string, options: { dtype?: string }): Promise<FeatureExtractor>;
};

function isTransformersModule(value: unknown): value is TransformersModule {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return typeof record.pipeline === 'function' && typeof record.env === 'object' && record.env !== null;
}

/** Loads the optional peer, or explains how to install it. */
function importTransformers(): Promise<TransformersModule> {
  return importOptionalPeer({
    packageName: TRANSFORMERS_PACKAGE,
    install: TRANSFORMERS_INSTALL,
    purpose: 'local embedding models',
    isModule: isTransformersModule,
  });
}

/** Options of `createTransformersEmbedder`. */
export type TransformersEmbedderOptions = {
  /** A local model directory, e.g. `/models/all-MiniLM-L6-v2` (config.json, tokenizer.json, onnx/). */
  modelPath: string;
  /** Weight precision: `fp32` loads `onnx/model.onnx`, `q8` `onnx/model_quantized.onnx` (default fp32). */
  dtype?: string;
  /** Token pooling; sentence-transformers models such as MiniLM use `mean` (default). */
  pooling?: 'mean' | 'cls';
  /** Texts per forward pass (default 32). */
  batchSize?: number;
};

/**
 * An Embedder running a sentence-embedding model on the CPU with transformers.js, an optional
 * peer loaded lazily with `await import()`. It never downloads: the model comes from
 * `modelPath` only (`env.localModelPath` is its parent, `env.allowRemoteModels = false`).
 * Vectors are pooled and normalised to unit length, as sentence-transformers does; one probe
 * text learns the dimension (384 for all-MiniLM-L6-v2, the paper's model).
 *
 * Throws `MissingOptionalDependencyError` (a user error) naming the install command when the
 * package is absent, or the expected files when the model directory is incomplete.
 */
export async function createTransformersEmbedder(options: TransformersEmbedderOptions): Promise<Embedder> {
  const transformers = await importTransformers();
  const modelDirectory = resolve(options.modelPath);
  const missing = TRANSFORMERS_MODEL_FILES.filter((file) => !existsSync(join(modelDirectory, file)));
  if (missing.length > 0) {
    throw new MissingOptionalDependencyError(
      `no transformers.js model at ${modelDirectory} (missing ${missing.join(', ')}): put a local copy of the ` +
        'model there (config.json, tokenizer.json and onnx/model.onnx, e.g. all-MiniLM-L6-v2); models are never downloaded',
    );
  }
  const batchSize = options.batchSize ?? 32;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError('batchSize must be a positive integer');
  const pooling = options.pooling ?? 'mean';
  transformers.env.localModelPath = `${dirname(modelDirectory)}${sep}`;
  transformers.env.allowLocalModels = true;
  transformers.env.allowRemoteModels = false;
  const extract = await transformers.pipeline('feature-extraction', basename(modelDirectory), {
    dtype: options.dtype ?? 'fp32',
  });

  const run = async (texts: readonly string[]): Promise<Float32Array[]> => {
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += batchSize) {
      const batch = texts.slice(start, start + batchSize);
      const output = await extract(batch, { pooling, normalize: true });
      const width = output.dims.at(-1) ?? 0;
      for (let row = 0; row < batch.length; row++) {
        vectors.push(Float32Array.from({ length: width }, (_, column) => Number(output.data[row * width + column])));
      }
    }
    return vectors;
  };

  const [probe] = await run(['dimension probe']);
  const dimension = probe?.length ?? 0;
  const id = `transformers:${basename(modelDirectory)}:${options.dtype ?? 'fp32'}:${pooling}`;
  return {
    id,
    dimension,
    async embed(texts, embedOptions = {}) {
      embedOptions.signal?.throwIfAborted();
      const vectors = await run(texts);
      checkEmbeddings({ embedderId: id, dimension, texts, vectors });
      return vectors;
    },
  };
}
