import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GenerationError } from './generation-error.js';
import { type GenerationPlan, openGenerationJournal } from './generation-journal.js';
import { resolveGenerationOptions } from './generation-options.js';

const plan = (overrides: Parameters<typeof resolveGenerationOptions>[0]['overrides'] = {}): GenerationPlan => ({
  formatVersion: 1,
  options: resolveGenerationOptions({ communityId: 'c', overrides }),
  prompts: { 'privacybench-gen-seeds@1': 'abc' },
  datagenModel: 'mock:scripted',
});

let outDir: string;
beforeEach(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'pb-journal-'));
});
afterEach(async () => {
  await rm(outDir, { recursive: true, force: true });
});

describe('openGenerationJournal', () => {
  it('stores the plan, appends entries and returns the latest entry per unit after reopening', async () => {
    const journal = await openGenerationJournal({ outDir, plan: plan() });
    await journal.append({ unit: 'seeds', attempt: 1, output: { people: [] } });
    await journal.append({ unit: 'profile/u01', attempt: 1, output: { a: 1 } });
    await journal.append({ unit: 'profile/u01', attempt: 2, output: { a: 2 } });
    const reopened = await openGenerationJournal({ outDir, plan: plan() });
    expect(reopened.size()).toBe(2);
    expect(reopened.latest('profile/u01')).toEqual({ unit: 'profile/u01', attempt: 2, output: { a: 2 } });
    expect(reopened.latest('secrets/u01')).toBeUndefined();
    expect(JSON.parse(await readFile(join(outDir, '.generate', 'plan.json'), 'utf8'))).toEqual(plan());
  });

  it('ignores a partial last line, and refuses a damaged line elsewhere', async () => {
    const journal = await openGenerationJournal({ outDir, plan: plan() });
    await journal.append({ unit: 'seeds', attempt: 1, output: 1 });
    await appendFile(join(outDir, '.generate', 'units.jsonl'), '{"unit":"tim', 'utf8');
    expect((await openGenerationJournal({ outDir, plan: plan() })).size()).toBe(1);
    await appendFile(join(outDir, '.generate', 'units.jsonl'), '\n{"unit":"groups","attempt":1,"output":2}\n', 'utf8');
    await expect(openGenerationJournal({ outDir, plan: plan() })).rejects.toThrow(
      /units\.jsonl:2 is not a journal entry/,
    );
  });

  it('refuses other settings but lets the retry limits change', async () => {
    await openGenerationJournal({ outDir, plan: plan({ seed: 1 }) });
    const error = await openGenerationJournal({ outDir, plan: plan({ seed: 2, parameters: { users: 5 } }) }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(GenerationError);
    expect((error as Error).message).toMatch(/other settings \(seed, users\)/);
    await expect(
      openGenerationJournal({ outDir, plan: { ...plan({ seed: 1 }), datagenModel: 'openai:x' } }),
    ).rejects.toThrow(/datagen model/);
    const raised = await openGenerationJournal({ outDir, plan: plan({ seed: 1, maxAttempts: 9, maxParseRetries: 4 }) });
    expect(raised.size()).toBe(0);
  });
});
