import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfaideTier, tierFiles } from '../../src/suites/confaide/load-tiers.js';
import { fixtureDataDir } from '../support/test-data.js';
import {
  expectCliOkOrUserError,
  expectValueOrUserError,
  fuzzParameters,
  fuzzTimeout,
  fuzzWorkspace,
  garbledText,
  ONE_DRY_RUN_TIMEOUT_MS,
  writeFiles,
} from './fuzz-inputs.js';

/**
 * ConfAIde tier files (our fixtures in the upstream format), garbled: the loader returns scenarios
 * or a user error, and `run confaide --dry-run` on them exits 0 or 2, for every tier.
 */

const TIERS = ['1', '2a', '2b', '3', '4'] as const;
const fixture = (name: string) => readFileSync(join(fixtureDataDir, 'confaide', name), 'utf8');

/** Every file of `tier`, each one garbled or kept (at least one garbled). */
function garbledTier(tier: (typeof TIERS)[number]): fc.Arbitrary<Record<string, string>> {
  const names = tierFiles(tier);
  return fc
    .tuple(...names.map((name) => fc.option(garbledText(fixture(name)), { nil: undefined })))
    .filter((texts) => texts.some((text) => text !== undefined))
    .map((texts) => Object.fromEntries(names.map((name, index) => [name, texts[index] ?? fixture(name)])));
}

const anyTier = fc.constantFrom(...TIERS).chain((tier) => garbledTier(tier).map((files) => ({ tier, files })));

/** `run confaide --tier … --dry-run` over a data dir holding `files`. */
function tierArgs(tier: string, files: Record<string, string>): string[] {
  const dataDir = workspace.fresh();
  writeFiles(join(dataDir, 'confaide'), files);
  return ['run', 'confaide', '--tier', tier, '--model', 'mock:echo', '--data-dir', dataDir, '--dry-run'];
}

const workspace = fuzzWorkspace('confaide');
beforeAll(workspace.open);
afterAll(workspace.close);

describe('fuzz: ConfAIde tier files', () => {
  it(
    'loadConfaideTier returns scenarios or a user error',
    async () => {
      await fc.assert(
        fc.asyncProperty(anyTier, async ({ tier, files }) => {
          const datasetDir = workspace.fresh();
          writeFiles(datasetDir, files);
          await expectValueOrUserError(() => loadConfaideTier({ datasetDir, tier }));
        }),
        fuzzParameters(300),
      );
    },
    fuzzTimeout(120_000),
  );

  it(
    'the undamaged tiers plan, so the damage is what the fuzz tests',
    async () => {
      for (const tier of TIERS) {
        const files = Object.fromEntries(tierFiles(tier).map((name) => [name, fixture(name)]));
        const result = await workspace.cli(tierArgs(tier, files));
        expect(result.code, result.stderr).toBe(0);
      }
    },
    ONE_DRY_RUN_TIMEOUT_MS,
  );

  it(
    'run confaide --dry-run on them exits 0 or 2 with a message',
    async () => {
      await fc.assert(
        fc.asyncProperty(anyTier, async ({ tier, files }) => {
          const args = tierArgs(tier, files);
          expectCliOkOrUserError(await workspace.cli(args), `tier ${tier}: ${JSON.stringify(files).slice(0, 2000)}`);
        }),
        fuzzParameters(30),
      );
    },
    fuzzTimeout(180_000),
  );
});
