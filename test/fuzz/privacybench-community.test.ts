import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCommunity, validateCommunityFiles } from '../../src/suites/privacybench/load-community.js';
import { repoRoot } from '../support/test-data.js';
import {
  damagedJson,
  damagedJsonText,
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
 * The PrivacyBench starter community (ours), damaged: `validateCommunityFiles` never throws,
 * `loadCommunity` returns the community or a user error, and `run privacybench --community <dir>
 * --dry-run` exits 0 or 2.
 */

const STARTER = join(repoRoot, 'src', 'suites', 'privacybench', 'starter');
const communityText = readFileSync(join(STARTER, 'community.json'), 'utf8');
const documentsText = readFileSync(join(STARTER, 'documents.jsonl'), 'utf8');
const community = JSON.parse(communityText) as unknown;
const documents = documentsText
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as unknown);

/** documents.jsonl with up to three documents damaged, dropped or duplicated, or its text garbled. */
const damagedDocuments = fc.oneof(
  fc
    .array(
      fc.record({
        at: fc.nat({ max: documents.length - 1 }),
        edit: fc.oneof(
          damagedJson({ doc: null }).map(() => 'drop' as const),
          fc.nat({ max: documents.length - 1 }).map((from) => ({ copy: from })),
          fc.constant('damage' as const),
        ),
        damage: fc.nat({ max: documents.length - 1 }).chain((index) => damagedJson(documents[index])),
      }),
      { minLength: 1, maxLength: 3 },
    )
    .map((edits) => {
      const lines = documents.map((document) => JSON.stringify(document));
      for (const { at, edit, damage } of edits) {
        if (edit === 'drop') lines.splice(at, 1);
        else if (edit === 'damage') lines[at] = JSON.stringify(damage) ?? '';
        else lines.splice(at, 0, lines[edit.copy] ?? '');
      }
      return lines.join('\n');
    }),
  garbledText(documentsText),
);

/** The two files, at least one of them damaged. */
const damagedCommunity = fc
  .tuple(fc.option(damagedJsonText(community), { nil: undefined }), fc.option(damagedDocuments, { nil: undefined }))
  .filter(([c, d]) => c !== undefined || d !== undefined)
  .map(([c, d]) => ({ 'community.json': c ?? communityText, 'documents.jsonl': d ?? documentsText }));

const workspace = fuzzWorkspace('privacybench');
beforeAll(workspace.open);
afterAll(workspace.close);

const runArgs = (dir: string) => [
  ...['run', 'privacybench', '--community', dir, '--dry-run'],
  ...['--model', 'mock:echo', '--model', 'prober=mock:echo', '--model', 'judge=mock:judge-safe'],
];

describe('fuzz: PrivacyBench community', () => {
  it(
    'validateCommunityFiles never throws, and loadCommunity returns the community or a user error',
    async () => {
      await fc.assert(
        fc.asyncProperty(damagedCommunity, async (files) => {
          validateCommunityFiles({ communityText: files['community.json'], documentsText: files['documents.jsonl'] });
          const dir = workspace.fresh();
          writeFiles(dir, files);
          await expectValueOrUserError(() => loadCommunity({ dir }));
        }),
        fuzzParameters(60),
      );
    },
    fuzzTimeout(180_000),
  );

  it(
    'the undamaged community plans, so the damage is what the fuzz tests',
    async () => {
      const dir = workspace.fresh();
      writeFiles(dir, { 'community.json': communityText, 'documents.jsonl': documentsText });
      const result = await workspace.cli(runArgs(dir));
      expect(result.code, result.stderr).toBe(0);
    },
    ONE_DRY_RUN_TIMEOUT_MS,
  );

  it(
    'run privacybench --community <damaged> --dry-run exits 0 or 2 with a message',
    async () => {
      await fc.assert(
        fc.asyncProperty(damagedCommunity, async (files) => {
          const dir = workspace.fresh();
          writeFiles(dir, files);
          expectCliOkOrUserError(await workspace.cli(runArgs(dir)), 'a damaged community');
        }),
        fuzzParameters(20),
      );
    },
    fuzzTimeout(180_000),
  );
});
