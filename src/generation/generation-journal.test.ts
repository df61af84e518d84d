import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GenerationError } from './generation-error.js';
import {
  GENERATION_DIR,
  GENERATION_JOURNAL_FILE,
  GENERATION_PLAN_FILE,
  type GenerationPlan,
  openGenerationJournal,
} from './generation-journal.js';

const lineSchema = z.object({ unit: z.string().min(1), attempt: z.int().positive(), output: z.unknown() });
const plan = (settings: Record<string, unknown> = {}): GenerationPlan => ({
  formatVersion: 1,
  generator: 'toy',
  settings: { seed: 1, maxAttempts: 3, parameters: { users: 4, groups: 1 }, ...settings },
  prompts: { 'toy-gen@v1': 'abc' },
  datagenModel: 'mock:scripted',
});

let outDir: string;
beforeEach(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'gen-journal-'));
});
afterEach(async () => {
  await rm(outDir, { recursive: true, force: true });
});

describe('openGenerationJournal', () => {
  it('writes the plan, appends lines and reads them back, ignoring a torn last line', async () => {
    const journal = await openGenerationJournal({ outDir, plan: plan(), lineSchema });
    expect(journal.dir).toBe(join(outDir, GENERATION_DIR));
    await journal.append({ unit: 'seeds', attempt: 1, output: [1] });
    await journal.append({ unit: 'seeds', attempt: 2, output: [2] });
    expect(JSON.parse(await readFile(join(journal.dir, GENERATION_PLAN_FILE), 'utf8'))).toEqual(plan());
    await appendFile(join(journal.dir, GENERATION_JOURNAL_FILE), '{"unit":"tim', 'utf8');
    const again = await openGenerationJournal({ outDir, plan: plan(), lineSchema });
    expect(again.lines).toEqual([
      { unit: 'seeds', attempt: 1, output: [1] },
      { unit: 'seeds', attempt: 2, output: [2] },
    ]);
    await expect(again.append({ unit: '', attempt: 1, output: 0 })).rejects.toThrow();
  });

  it('names a damaged complete line', async () => {
    const journal = await openGenerationJournal({ outDir, plan: plan(), lineSchema });
    await appendFile(join(journal.dir, GENERATION_JOURNAL_FILE), '{"unit":"x"}\n{"unit":"y","attempt":1}\n', 'utf8');
    const error = await openGenerationJournal({ outDir, plan: plan(), lineSchema }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GenerationError);
    expect((error as Error).message).toMatch(
      /journal\.jsonl:1 is not a toy journal line at attempt: .*; delete .*\.generate to start over/,
    );
  });

  it('refuses other settings, one level deep and by label, but lets the mayChange settings change', async () => {
    await openGenerationJournal({ outDir, plan: plan(), lineSchema });
    const changed = plan({ seed: 2, maxAttempts: 9, parameters: { users: 5, groups: 1 } });
    const error = await openGenerationJournal({
      outDir,
      plan: { ...changed, datagenModel: 'mock:other' },
      lineSchema,
      labels: { users: 'member count' },
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GenerationError);
    expect((error as Error).message).toMatch(
      /holds a toy generation with other settings \(datagen model \(was mock:scripted\), seed, maxAttempts, member count\)/,
    );
    await expect(
      openGenerationJournal({ outDir, plan: plan({ maxAttempts: 9 }), lineSchema, mayChange: ['maxAttempts'] }),
    ).resolves.toMatchObject({ lines: [] });
  });
});
