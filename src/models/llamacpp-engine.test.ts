import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeGguf } from '../../test/support/gguf-writer.js';
import { tinyLlamaGguf, tinyLlamaModel } from '../../test/support/tiny-llama-gguf.js';
import { ConfidantError, ModelSpecError } from '../spec/errors.js';
import { acquireLlamaCppEngine, llamaCppStats } from './llamacpp-engine.js';

const work = mkdtempSync(join(tmpdir(), 'confidant-llamacpp-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A private copy of the tiny model, so this file's load counts start at zero. */
function copyOfTinyModel(name: string): string {
  const path = join(work, name);
  copyFileSync(tinyLlamaGguf(), path);
  return path;
}

async function failure(promise: Promise<unknown>): Promise<ConfidantError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!ConfidantError.isInstance(error)) throw new Error(`expected a ConfidantError, got ${String(error)}`);
  return error;
}

describe('acquireLlamaCppEngine', () => {
  it('loads a file once per process, shared by every caller with the same options, symlinks included', async () => {
    const path = copyOfTinyModel('shared.gguf');
    const link = join(work, 'link.gguf');
    symlinkSync(path, link);
    const [a, b, c] = await Promise.all([
      acquireLlamaCppEngine({ modelPath: path, threads: 1 }),
      acquireLlamaCppEngine({ modelPath: path, threads: 1 }),
      acquireLlamaCppEngine({ modelPath: link, threads: 1 }),
    ]);
    expect(b).toBe(a);
    expect(c).toBe(a);
    expect(await llamaCppStats(path)).toEqual({ loads: 1, generations: 0 });
    expect(a).toMatchObject({ sequences: 1, threads: 1, gpu: false, contextSize: 4096 });
    // The model's own context length (4,096) is within the default range of 2,048 to 8,192.
    const other = await acquireLlamaCppEngine({ modelPath: path, threads: 1, contextSize: 512 });
    expect(other).not.toBe(a);
    expect(other.contextSize).toBe(512);
    expect(await llamaCppStats(path)).toEqual({ loads: 2, generations: 0 });
  });

  it('names a missing file, a directory and a file that is not GGUF as user errors', async () => {
    const missing = await failure(acquireLlamaCppEngine({ modelPath: join(work, 'nope.gguf') }));
    expect(missing).toBeInstanceOf(ModelSpecError);
    expect(missing.userError).toBe(true);
    expect(missing.message).toBe(
      `llamacpp model file not found: ${join(work, 'nope.gguf')} (the model id of a llamacpp: spec is the path of a local .gguf file, e.g. llamacpp:/models/qwen3-4b-q4.gguf)`,
    );

    const directory = join(work, 'models');
    mkdirSync(directory);
    const notFile = await failure(acquireLlamaCppEngine({ modelPath: directory }));
    expect(notFile).toBeInstanceOf(ModelSpecError);
    expect(notFile.message).toBe(`llamacpp model ${directory} is not a file: give the path of a .gguf file`);

    const text = join(work, 'model.gguf.txt');
    writeFileSync(text, 'version https://git-lfs.github.com/spec/v1\noid sha256:0\n');
    const notGguf = await failure(acquireLlamaCppEngine({ modelPath: text }));
    expect(notGguf).toBeInstanceOf(ModelSpecError);
    expect(notGguf.message).toMatch(/is not a GGUF file \(it does not start with "GGUF"\): llamacpp: needs a model/);

    const empty = join(work, 'empty.gguf');
    writeFileSync(empty, '');
    expect((await failure(acquireLlamaCppEngine({ modelPath: empty }))).message).toMatch(/is not a GGUF file/);
  });

  it('names a truncated GGUF file and one llama.cpp cannot load as user errors', async () => {
    const truncated = join(work, 'truncated.gguf');
    writeFileSync(truncated, readFileSync(tinyLlamaGguf()).subarray(0, 2000));
    const cut = await failure(acquireLlamaCppEngine({ modelPath: truncated, threads: 1 }));
    expect(cut).toBeInstanceOf(ModelSpecError);
    expect(cut.message).toMatch(
      /^llama\.cpp could not load .*truncated\.gguf: Failed to load model \(gguf_init_from_reader: failed to read key-value pairs.*\); check that the file is complete/,
    );

    const { metadata, tensors } = tinyLlamaModel();
    const noOutputs = join(work, 'missing-tensors.gguf');
    writeFileSync(
      noOutputs,
      writeGguf({ metadata, tensors: tensors.filter((tensor) => !tensor.name.startsWith('blk.1.')) }),
    );
    const broken = await failure(acquireLlamaCppEngine({ modelPath: noOutputs, threads: 1 }));
    expect(broken).toBeInstanceOf(ModelSpecError);
    expect(broken.message).toMatch(/^llama\.cpp could not load .*missing-tensors\.gguf: .*blk\.1\./);
  });

  it('refuses weights larger than free RAM before loading them, and forgets the failed load', async () => {
    const path = copyOfTinyModel('large.gguf');
    const error = await failure(acquireLlamaCppEngine({ modelPath: path, threads: 1, freeRamBytes: 100_000 }));
    expect(error.userError).toBe(true);
    expect(error.message).toMatch(
      /^llamacpp model .*large\.gguf needs about 530\.\d KiB of RAM for its weights, but only 97\.7 KiB of [\d.]+ GiB is free: use a smaller model or quantization/,
    );
    expect(await llamaCppStats(path)).toEqual({ loads: 0, generations: 0 });
    const engine = await acquireLlamaCppEngine({ modelPath: path, threads: 1 });
    expect(engine.contextSize).toBe(4096);
    expect(await llamaCppStats(path)).toEqual({ loads: 1, generations: 0 });
  });

  it('refuses a context that does not fit beside the weights, before allocating it', async () => {
    const path = copyOfTinyModel('context.gguf');
    // The weights (~530 KiB) fit in 4 MB; a 4,096-token context (~40 MB of KV cache) does not.
    const error = await failure(
      acquireLlamaCppEngine({ modelPath: path, threads: 1, contextSize: 4096, freeRamBytes: 4_000_000 }),
    );
    expect(error.userError).toBe(true);
    expect(error.message).toMatch(
      /^llamacpp model .*context\.gguf needs about [\d.]+ MiB of RAM for its weights and a context of 4096 tokens, but only 3\.8 MiB of [\d.]+ GiB is free: use a smaller context \(CONFIDANT_LLAMACPP_CONTEXT_SIZE\)/,
    );
    expect(await llamaCppStats(path)).toEqual({ loads: 0, generations: 0 });
  });
});
