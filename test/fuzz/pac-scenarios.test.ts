import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCustomPacScenarios } from '../../src/suites/pac/load-custom-scenarios.js';
import { loadPacScenarios, PAC_STARTER_DIR, parsePacScenarioFile } from '../../src/suites/pac/load-scenarios.js';
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
 * PAC-Bench scenario files, damaged: in the paper layout (`--data-dir`, `--split range`) and as
 * `--scenarios` (a folder of .json, a .jsonl file). Every loader returns scenarios or a user error,
 * and `run pac --dry-run` exits 0 or 2.
 */

const starter = JSON.parse(
  readFileSync(join(PAC_STARTER_DIR, 'range', 'Artisan_Bakeries', 'policy_0.json'), 'utf8'),
) as unknown;
const REF = { path: 'policy_0.json', id: 'range/x/0', split: 'range', policyType: 'range', domain: 'x' } as const;

/** A `.jsonl` of one to three scenarios, each damaged or not, or the lines garbled. */
const damagedJsonl = fc
  .array(fc.oneof(damagedJson(starter), fc.constant(starter)), { minLength: 1, maxLength: 3 })
  .map((values) => values.map((value) => JSON.stringify(value) ?? '').join('\n'));

/** Paper-layout files under `<dataDir>/pacbench/scenarios/range/`, or `--scenarios` files. */
const layout = fc.oneof(
  damagedJsonText(starter).map((text) => ({ kind: 'paper' as const, files: { 'D/policy_0.json': text } })),
  fc
    .tuple(damagedJsonText(starter), fc.constantFrom('a.json', 'deep/b.JSON'))
    .map(([text, name]) => ({ kind: 'custom' as const, files: { [name]: text } })),
  damagedJsonl.map((text) => ({ kind: 'custom' as const, files: { 'many.jsonl': text } })),
);

/** Writes the files where `kind` reads them and returns the flags that name them. */
function pacSource({ root, kind, files }: { root: string; kind: 'paper' | 'custom'; files: Record<string, string> }) {
  if (kind === 'custom') {
    writeFiles(root, files);
    return ['--scenarios', root];
  }
  writeFiles(join(root, 'pacbench', 'scenarios', 'range'), files);
  return ['--data-dir', root, '--split', 'range'];
}

const pacArgs = (source: string[]) => [
  ...['run', 'pac', ...source, '--model', 'agent=reference:oracle', '--dry-run'],
  ...['--set', 'taskMode=markers', '--set', 'privacyMode=keyword-only'],
];

const workspace = fuzzWorkspace('pac');
beforeAll(workspace.open);
afterAll(workspace.close);

describe('fuzz: PAC-Bench scenarios', () => {
  it(
    'parsePacScenarioFile returns a scenario or a user error for any damaged scenario',
    async () => {
      await fc.assert(
        fc.asyncProperty(damagedJson(starter), async (json) => {
          await expectValueOrUserError(() => parsePacScenarioFile({ json, ref: REF }));
        }),
        fuzzParameters(1000),
      );
    },
    fuzzTimeout(120_000),
  );

  it(
    'loadPacScenarios and loadCustomPacScenarios return scenarios or a user error',
    async () => {
      await fc.assert(
        fc.asyncProperty(layout, async ({ kind, files }) => {
          const root = workspace.fresh();
          if (kind === 'paper') {
            writeFiles(join(root, 'pacbench', 'scenarios', 'range'), files);
            await expectValueOrUserError(() => loadPacScenarios({ dataDir: root, split: 'range' }));
          } else {
            writeFiles(root, files);
            await expectValueOrUserError(() => loadCustomPacScenarios({ path: root }));
            const [first] = Object.keys(files);
            await expectValueOrUserError(() => loadCustomPacScenarios({ path: join(root, first!) }));
          }
        }),
        fuzzParameters(300),
      );
    },
    fuzzTimeout(120_000),
  );

  it(
    'the undamaged scenario plans in both layouts, so the damage is what the fuzz tests',
    async () => {
      for (const kind of ['paper', 'custom'] as const) {
        const files = { 'D/policy_0.json': JSON.stringify(starter) };
        const result = await workspace.cli(pacArgs(pacSource({ root: workspace.fresh(), kind, files })));
        expect(result.code, result.stderr).toBe(0);
      }
    },
    ONE_DRY_RUN_TIMEOUT_MS,
  );

  it(
    'run pac --dry-run on them exits 0 or 2 with a message',
    async () => {
      await fc.assert(
        fc.asyncProperty(layout, async ({ kind, files }) => {
          const root = workspace.fresh();
          const source = pacSource({ root, kind, files });
          expectCliOkOrUserError(await workspace.cli(pacArgs(source)), JSON.stringify(files).slice(0, 2000));
        }),
        fuzzParameters(30),
      );
    },
    fuzzTimeout(180_000),
  );
});
