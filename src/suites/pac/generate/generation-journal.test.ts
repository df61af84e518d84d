import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  GENERATION_DIR,
  GENERATION_JOURNAL_FILE,
  GENERATION_PLAN_FILE,
  GenerationError,
} from '../../../generation/index.js';
import { openPacGenerationJournal, type PacGenerationPlan } from './generation-journal.js';

const plan: PacGenerationPlan = {
  formatVersion: 1,
  seed: 3,
  agents: 2,
  requirementCount: 5,
  prompts: { 'pac-gen-scenario@v1': 'abc' },
  datagenModel: 'mock:scripted',
};
const draft = {
  collaboration_structure: 's',
  description: 'd',
  goal: 'g',
  tool_category: 'data management',
  agents: [
    { organization: 'o1', expertise: 'e1' },
    { organization: 'o2', expertise: 'e2' },
  ],
};

let outDir: string;
beforeEach(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'pac-journal-'));
});
afterEach(async () => {
  await rm(outDir, { recursive: true, force: true });
});

describe('openPacGenerationJournal', () => {
  it('writes the plan, appends one line per entry and reads them back after a reopen', async () => {
    const journal = await openPacGenerationJournal({ outDir, plan });
    expect(JSON.parse(await readFile(join(outDir, GENERATION_DIR, GENERATION_PLAN_FILE), 'utf8'))).toEqual({
      formatVersion: 1,
      generator: 'pac',
      settings: { seed: 3, agents: 2, requirementCount: 5 },
      prompts: plan.prompts,
      datagenModel: plan.datagenModel,
    });
    await Promise.all([
      journal.append({ kind: 'stage', unit: 'range/Banks/policy_0', stage: 'scenario', attempt: 1, output: draft }),
      journal.append({ kind: 'stage', unit: 'range/Banks/policy_0', stage: 'requirements', attempt: 2, output: ['r'] }),
      journal.append({
        kind: 'stage',
        unit: 'range/Banks/policy_0',
        stage: 'memory',
        agent: 'agent_a',
        attempt: 1,
        output: [{ requirements_index: [0], content: 'c' }],
      }),
    ]);
    const text = await readFile(join(journal.dir, GENERATION_JOURNAL_FILE), 'utf8');
    expect(text.split('\n')).toHaveLength(4);
    const reopened = await openPacGenerationJournal({ outDir, plan });
    const record = reopened.unit('range/Banks/policy_0');
    expect(record.scenario).toEqual(draft);
    expect(record.requirements).toEqual(['r']);
    expect([...record.memory.keys()]).toEqual(['agent_a']);
    expect(record.constraint.size).toBe(0);
    expect(reopened.unit('range/Banks/policy_9')).toEqual({ memory: new Map(), constraint: new Map() });
  });

  it('keeps a rejection until a later stage or done line for the unit', async () => {
    const journal = await openPacGenerationJournal({ outDir, plan });
    await journal.append({ kind: 'rejected', unit: 'u', stage: 'requirements', attempts: 3, reasons: ['x [rule]'] });
    expect(journal.unit('u').rejected).toEqual({ stage: 'requirements', attempts: 3, reasons: ['x [rule]'] });
    await journal.append({ kind: 'stage', unit: 'u', stage: 'requirements', attempt: 4, output: ['r'] });
    expect(journal.unit('u').rejected).toBeUndefined();
    await journal.append({ kind: 'done', unit: 'u', file: 'range/B/policy_0.json' });
    expect((await openPacGenerationJournal({ outDir, plan })).unit('u')).toMatchObject({
      done: 'range/B/policy_0.json',
      requirements: ['r'],
    });
  });

  it('refuses another plan, naming what differs, but not other domains or retry limits', async () => {
    await openPacGenerationJournal({ outDir, plan });
    await expect(openPacGenerationJournal({ outDir, plan: { ...plan, seed: 4, agents: 3 } })).rejects.toThrow(
      /holds a pac generation with other settings \(seed, agents per scenario\)/,
    );
    await expect(
      openPacGenerationJournal({ outDir, plan: { ...plan, datagenModel: 'openai:gpt-5.1' } }),
    ).rejects.toBeInstanceOf(GenerationError);
  });

  it('ignores a partial last line but refuses a damaged line in the middle', async () => {
    const journal = await openPacGenerationJournal({ outDir, plan });
    await journal.append({ kind: 'done', unit: 'u', file: 'f.json' });
    const path = join(journal.dir, GENERATION_JOURNAL_FILE);
    await appendFile(path, '{"kind":"stage","unit":"v","sta');
    expect((await openPacGenerationJournal({ outDir, plan })).unit('u').done).toBe('f.json');
    await writeFile(path, `{"kind":"nonsense"}\n{"kind":"done","unit":"u","file":"f.json"}\n`);
    await expect(openPacGenerationJournal({ outDir, plan })).rejects.toThrow(
      /journal\.jsonl:1 is not a pac journal line/,
    );
    await writeFile(path, `{"kind":"stage","unit":"u","stage":"memory","attempt":1,"output":[]}\n\n`);
    await expect(openPacGenerationJournal({ outDir, plan })).rejects.toBeInstanceOf(GenerationError);
  });

  it('refuses to append a malformed line', async () => {
    const journal = await openPacGenerationJournal({ outDir, plan });
    await expect(journal.append({ kind: 'done', unit: '', file: 'f' })).rejects.toThrow();
  });
});
