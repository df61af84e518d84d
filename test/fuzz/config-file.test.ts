import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfigObject, readConfigFile } from '../../src/cli/config-file.js';
import { loadSuites } from '../../src/suites/registry.js';
import { fixtureDataDir } from '../support/test-data.js';
import {
  anyJson,
  damagedJson,
  damagedJsonText,
  expectCliOkOrUserError,
  expectValueOrUserError,
  fuzzParameters,
  fuzzTimeout,
  fuzzWorkspace,
  ONE_DRY_RUN_TIMEOUT_MS,
  writeFiles,
} from './fuzz-inputs.js';

const suites = await loadSuites();
const findSuite = (id: string) => suites.find((suite) => suite.id === id)!;

/**
 * `--config` files, damaged: `readConfigFile` returns flags or a user error, and `run confaide
 * --config <file> --dry-run` exits 0 or 2.
 */

const valid = {
  model: ['mock:echo'],
  tier: '1',
  set: { instruction: 'off' },
  epochs: 2,
  limit: 2,
  seed: 7,
  concurrency: 2,
  maxCost: 1,
  prices: { 'mock:echo': '0/0' },
  modelSetting: ['agent.temperature=0'],
  defense: ['vanilla'],
};

const suite = findSuite('confaide');
const workspace = fuzzWorkspace('config');
beforeAll(workspace.open);
afterAll(workspace.close);

function configArgs(text: string): string[] {
  const dir = workspace.fresh();
  writeFiles(dir, { 'config.json': text });
  return ['run', 'confaide', '--config', join(dir, 'config.json'), '--data-dir', fixtureDataDir, '--dry-run'];
}

describe('fuzz: --config files', () => {
  it(
    'parseConfigObject and readConfigFile return flags or a user error',
    async () => {
      await fc.assert(
        fc.asyncProperty(damagedJson(valid), anyJson, damagedJsonText(valid), async (raw, other, text) => {
          for (const value of [raw, other]) {
            if (typeof value !== 'object' || value === null || Array.isArray(value)) continue;
            const record = value as Record<string, unknown>;
            await expectValueOrUserError(() => parseConfigObject({ raw: record, suite, where: 'fuzz' }));
          }
          const dir = workspace.fresh();
          writeFiles(dir, { 'config.json': text });
          await expectValueOrUserError(() => readConfigFile({ path: join(dir, 'config.json'), suite }));
        }),
        fuzzParameters(500),
      );
    },
    fuzzTimeout(120_000),
  );

  it(
    'the undamaged config plans, so the damage is what the fuzz tests',
    async () => {
      const result = await workspace.cli(configArgs(JSON.stringify(valid)));
      expect(result.code, result.stderr).toBe(0);
    },
    ONE_DRY_RUN_TIMEOUT_MS,
  );

  it(
    'run --config <damaged> --dry-run exits 0 or 2 with a message',
    async () => {
      await fc.assert(
        fc.asyncProperty(damagedJsonText(valid), async (text) => {
          expectCliOkOrUserError(await workspace.cli(configArgs(text)), text);
        }),
        fuzzParameters(40),
      );
    },
    fuzzTimeout(180_000),
  );
});
