import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkModelSpec, parseModelSpec, parseRoleBinding } from '../../src/models/index.js';
import { redactSpec } from '../../src/models/parse-model-spec.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import {
  expectCliOkOrUserError,
  expectValueOrUserError,
  fuzzParameters,
  fuzzTimeout,
  nastyString,
} from './fuzz-inputs.js';

/**
 * The model-spec parser on arbitrary and near-valid specs: a parsed spec or a user error, never a
 * crash; a credential in a base URL never shows in an error or in the stored form; and the CLI
 * answers any `--model` with exit 0 or 2.
 */

const PROVIDERS = ['openai', 'anthropic', 'google', 'openai-compatible', 'ollama', 'vllm', 'llamacpp', 'mock'];
const CANARY = 'CANARYsecret42';

/** Loopback or reserved hosts only: a spec that parses is never a reachable address. */
const host = fc.constantFrom('127.0.0.1:9', 'localhost:1', '[::1]:9', 'h.invalid', '', '127.0.0.1:99999', 'a b');

const baseUrl = fc
  .record({
    scheme: fc.constantFrom('http://', 'https://', 'HTTP://', 'ftp://', '', 'http:/'),
    userinfo: fc.constantFrom('', `u:${CANARY}@`, `${CANARY}@`, ':@'),
    host,
    path: fc.oneof(fc.constantFrom('', '/v1', '/v1/', '/%zz'), nastyString),
    query: fc.constantFrom('', `?api_key=${CANARY}`, `?api-version=1&token=${CANARY}`, '?x', '#frag'),
  })
  .map(({ scheme, userinfo, host: h, path, query }) => `${scheme}${userinfo}${h}${path}${query}`);

/** Specs near the valid form, so the fuzz reaches the URL and credential checks. */
const nearSpec = fc
  .record({
    provider: fc.oneof(fc.constantFrom(...PROVIDERS, 'reference', 'Open AI', 'acme', ''), nastyString),
    colon: fc.constantFrom(':', '', '::'),
    model: fc.oneof(fc.constantFrom('gpt-4o', 'qwen3:32b', 'echo', 'fixed/hi', 'a@b', ''), nastyString),
    urls: fc.array(baseUrl, { maxLength: 3 }),
    joiner: fc.constantFrom(',', ', ', ',,'),
  })
  .map(({ provider, colon, model, urls, joiner }) =>
    urls.length === 0 ? `${provider}${colon}${model}` : `${provider}${colon}${model}@${urls.join(joiner)}`,
  );

const anySpec = fc.oneof(nearSpec, fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }));

const anyBinding = fc.oneof(
  anySpec,
  fc
    .tuple(fc.oneof(fc.constantFrom('judge', 'agent-a', 'Judge', '', '1x'), nastyString), anySpec)
    .map(([role, spec]) => `${role}=${spec}`),
);

/** A URL whose scheme says it is one, with the canary as user-info or as a credential parameter. */
const secretUrl = fc
  .record({
    scheme: fc.constantFrom('http://', 'https://', 'HTTP://', 'ftp://', 'ws://'),
    userinfo: fc.constantFrom('', `u:${CANARY}@`, `${CANARY}@`, `:${CANARY}@`),
    host,
    path: fc.oneof(fc.constantFrom('', '/v1', '/%zz'), nastyString),
    query: fc.constantFrom('', `?api_key=${CANARY}`, `?api-version=1&Access-Token=${CANARY}`, `?key=${CANARY}#x`),
  })
  .filter(({ userinfo, query }) => userinfo !== '' || query !== '')
  .map(({ scheme, userinfo, host: h, path, query }) => `${scheme}${userinfo}${h}${path}${query}`);

const secretBinding = fc
  .tuple(
    fc.oneof(fc.constantFrom('', 'judge=', 'Judge=', '"='), nastyString),
    fc.constantFrom(...PROVIDERS, 'acme', ''),
    fc.oneof(fc.constantFrom('m', 'a@b', ''), nastyString),
    fc.array(secretUrl, { minLength: 1, maxLength: 2 }),
  )
  .map(([role, provider, model, urls]) => `${role}${provider}:${model}@${urls.join(',')}`);

describe('fuzz: model specs', () => {
  it(
    'parseModelSpec, parseRoleBinding and checkModelSpec return or throw a user error',
    async () => {
      await fc.assert(
        fc.asyncProperty(anyBinding, async (text) => {
          await expectValueOrUserError(() => parseModelSpec(text));
          await expectValueOrUserError(() => parseRoleBinding(text));
          await expectValueOrUserError(() => checkModelSpec({ spec: text, env: {} }));
        }),
        fuzzParameters(2000),
      );
    },
    fuzzTimeout(120_000),
  );

  it(
    'a credential in a base URL is in no error message and not in the stored form',
    async () => {
      await fc.assert(
        fc.asyncProperty(secretBinding, async (text) => {
          for (const call of [() => parseRoleBinding(text), () => checkModelSpec({ spec: text, env: {} })] as Array<
            () => unknown
          >) {
            const outcome = await expectValueOrUserError(call);
            if (!outcome.ok) expect((outcome.error as Error).message).not.toContain(CANARY);
          }
          expect(redactSpec(text)).not.toContain(CANARY);
        }),
        fuzzParameters(2000),
      );
    },
    fuzzTimeout(120_000),
  );

  it(
    'parses what it builds: provider, model id with ":" and "@", and every base URL',
    () => {
      fc.assert(
        fc.property(
          fc.constantFrom(...PROVIDERS),
          fc.stringMatching(/^[A-Za-z0-9._:/@-]{1,20}$/),
          fc.array(fc.constantFrom('http://127.0.0.1:9/v1', 'https://h.invalid/x?api-version=1'), { maxLength: 3 }),
          (provider, model, urls) => {
            const spec = urls.length === 0 ? `${provider}:${model}` : `${provider}:${model}@${urls.join(',')}`;
            const outcome = (() => {
              try {
                return parseModelSpec(spec);
              } catch (error) {
                return error;
              }
            })();
            // A model id that itself ends in "@http…" cannot be told from a URL list; it is the only way to fail.
            if (outcome instanceof Error) expect(model).toMatch(/@/);
            else expect(outcome).toEqual({ provider, modelId: model, baseURLs: urls });
          },
        ),
        fuzzParameters(1000),
      );
    },
    fuzzTimeout(120_000),
  );
});

describe('fuzz: --model on the command line', () => {
  let work: string;
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'confidant-fuzz-spec-'));
  });
  afterAll(() => {
    rmSync(work, { recursive: true, force: true });
  });

  it(
    'run --dry-run with any --model exits 0 or 2 with a message, never an internal error',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(anyBinding, { minLength: 1, maxLength: 3 }), async (bindings) => {
          const args = ['run', 'toy-leak', '--dry-run', '--out', join(work, 'runs')];
          for (const binding of bindings) args.push('--model', binding);
          const result = await runCliInProcess({
            args,
            env: { HOME: work, CONFIDANT_CACHE_DIR: join(work, 'cache') },
            cwd: work,
          });
          expectCliOkOrUserError(result, args.join(' '));
        }),
        fuzzParameters(40),
      );
    },
    fuzzTimeout(180_000),
  );
});
