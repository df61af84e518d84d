import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MissingOptionalDependencyError } from '../spec/errors.js';
import { cosineSimilarity } from './cosine-similarity.js';
import { createTransformersEmbedder, TRANSFORMERS_PACKAGE, TRANSFORMERS_VERSION } from './transformers-embedder.js';

// transformers.js is an optional peer and models are never downloaded, so the real-model test
// runs only where both the package and a local all-MiniLM-L6-v2 copy exist. The model is looked
// for in CONFIDANT_TEST_MINILM_DIR, else ../shared/models/all-MiniLM-L6-v2 beside the repo.
const modelDirectory = resolve(
  process.env.CONFIDANT_TEST_MINILM_DIR ?? join('..', 'shared', 'models', 'all-MiniLM-L6-v2'),
);
const specifier: string = TRANSFORMERS_PACKAGE;
const packagePresent = await import(specifier).then(
  () => true,
  () => false,
);
const modelPresent = existsSync(join(modelDirectory, 'config.json'));
const skipReason = !packagePresent
  ? `${TRANSFORMERS_PACKAGE} is not installed`
  : !modelPresent
    ? `no local model at ${modelDirectory}`
    : '';

describe('createTransformersEmbedder', () => {
  it('is declared in package.json as an optional peer at the version the install hint names', () => {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      peerDependencies?: Record<string, string>;
      peerDependenciesMeta?: Record<string, { optional?: boolean }>;
      dependencies?: Record<string, string>;
    };
    expect(manifest.peerDependencies?.[TRANSFORMERS_PACKAGE]).toBe(TRANSFORMERS_VERSION);
    expect(manifest.peerDependenciesMeta?.[TRANSFORMERS_PACKAGE]?.optional).toBe(true);
    expect(manifest.dependencies?.[TRANSFORMERS_PACKAGE]).toBeUndefined();
  });

  it.runIf(!packagePresent)('fails with the install command when the package is absent', async () => {
    const error = await createTransformersEmbedder({ modelPath: modelDirectory }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MissingOptionalDependencyError);
    expect((error as MissingOptionalDependencyError).message).toBe(
      'local embedding models need the optional package @huggingface/transformers: run `npm install @huggingface/transformers@4.3.2`',
    );
    expect((error as MissingOptionalDependencyError).userError).toBe(true);
  });

  it.skipIf(!packagePresent)(
    `names the missing files when the model directory is incomplete${packagePresent ? '' : ` (skipped: ${TRANSFORMERS_PACKAGE} is not installed)`}`,
    async () => {
      const error = await createTransformersEmbedder({ modelPath: '/nonexistent/all-MiniLM-L6-v2' }).catch(
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(MissingOptionalDependencyError);
      expect((error as Error).message).toContain('missing config.json, tokenizer.json');
    },
  );

  it.skipIf(skipReason !== '')(
    `embeds with a local all-MiniLM-L6-v2${skipReason ? ` (skipped: ${skipReason})` : ''}`,
    async () => {
      const embedder = await createTransformersEmbedder({ modelPath: modelDirectory });
      expect(embedder.dimension).toBe(384);
      const [doctor, physician, pizza] = await embedder.embed([
        'I have a doctor appointment',
        'I am seeing my physician',
        'pizza night with friends',
      ]);
      expect(Math.hypot(...doctor!)).toBeCloseTo(1, 4);
      expect(cosineSimilarity(doctor!, physician!)!).toBeGreaterThan(cosineSimilarity(doctor!, pizza!)!);
    },
  );
});
