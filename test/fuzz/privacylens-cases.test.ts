import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseDiscreet, caseLeak } from '../../src/suites/privacylens/__fixtures__/fixture-cases.js';
import { loadCases, parseCases } from '../../src/suites/privacylens/load-cases.js';
import {
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

/**
 * PrivacyLens case files (our two fixture cases in the upstream format), damaged: `parseCases`
 * and `loadCases` return cases or a user error, and `run privacylens --dry-run` exits 0 or 2.
 */

const valid: unknown = [caseLeak, caseDiscreet];
const FILE = 'extensibility/confide_subset.json';

/** `run privacylens --dry-run` over a data dir whose confide subset holds `text`. */
function lensArgs(text: string): string[] {
  const dataDir = workspace.fresh();
  writeFiles(join(dataDir, 'privacylens'), { [FILE]: text });
  return [
    ...['run', 'privacylens', '--subset', 'confide', '--data-dir', dataDir, '--dry-run'],
    ...['--model', 'mock:echo', '--model', 'judge=mock:judge-safe'],
  ];
}

const workspace = fuzzWorkspace('privacylens');
beforeAll(workspace.open);
afterAll(workspace.close);

describe('fuzz: PrivacyLens cases', () => {
  it(
    'parseCases returns cases or a user error for any damaged case list',
    async () => {
      await fc.assert(
        fc.asyncProperty(damagedJson(valid), async (json) => {
          await expectValueOrUserError(() => parseCases({ json, file: FILE }));
        }),
        fuzzParameters(1000),
      );
    },
    fuzzTimeout(120_000),
  );

  it(
    'loadCases (Python-flavoured JSON parser included) returns cases or a user error',
    async () => {
      await fc.assert(
        fc.asyncProperty(damagedJsonText(valid), fc.constantFrom('all', 'test'), async (text, split) => {
          const datasetDir = workspace.fresh();
          writeFiles(datasetDir, { [FILE]: text });
          await expectValueOrUserError(() => loadCases({ datasetDir, subset: 'confide', split }));
        }),
        fuzzParameters(300),
      );
    },
    fuzzTimeout(120_000),
  );

  it(
    'the undamaged cases plan, so the damage is what the fuzz tests',
    async () => {
      const result = await workspace.cli(lensArgs(JSON.stringify(valid)));
      expect(result.code, result.stderr).toBe(0);
    },
    ONE_DRY_RUN_TIMEOUT_MS,
  );

  it(
    'run privacylens --dry-run on them exits 0 or 2 with a message',
    async () => {
      await fc.assert(
        fc.asyncProperty(damagedJsonText(valid), async (text) => {
          expectCliOkOrUserError(await workspace.cli(lensArgs(text)), text.slice(0, 2000));
        }),
        fuzzParameters(30),
      );
    },
    fuzzTimeout(180_000),
  );
});
