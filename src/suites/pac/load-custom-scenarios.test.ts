import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { prepareRun } from '../../runner/prepare-run.js';
import { DatasetFormatError } from '../../spec/errors.js';
import { runPlanSchema } from '../../spec/run-plan.js';
import { loadCustomPacScenarios } from './load-custom-scenarios.js';
import { PAC_NPARTY_DIR } from './load-scenarios.js';

const EXAMPLE = new URL(
  '../../../docs/suites/examples/pac/pacbench/scenarios/range/Community_Gardens/policy_0.json',
  import.meta.url,
).pathname;
const TENDER = join(PAC_NPARTY_DIR, 'range', 'Laser_Cutter_Tender', 'policy_0.json');
const example = () => JSON.parse(readFileSync(EXAMPLE, 'utf8')) as { scenario: Record<string, unknown> };

/** A folder of 19 valid scenario files with names of our choosing, in two sub-folders. */
function customFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'confidant-pac-custom-'));
  mkdirSync(join(dir, 'gardens'));
  mkdirSync(join(dir, 'more', 'deeper'), { recursive: true });
  for (let index = 0; index < 19; index++) {
    const folder = index < 10 ? 'gardens' : join('more', 'deeper');
    writeFileSync(join(dir, folder, `rota-${String(index).padStart(2, '0')}.json`), JSON.stringify(example()));
  }
  writeFileSync(join(dir, 'README.md'), 'not a scenario');
  return dir;
}

const plan = (scenarios: string) =>
  runPlanSchema.parse({
    suite: 'pac',
    suiteOptions: { scenarios, taskMode: 'markers', privacyMode: 'keyword-only' },
    models: [{ role: 'agent', spec: 'reference:oracle' }],
  });

describe('loadCustomPacScenarios', () => {
  it('loads every .json file under a folder, whatever its name and depth, with ids from the paths', () => {
    const { scenarios, warnings } = loadCustomPacScenarios({ path: customFolder() });
    expect(scenarios).toHaveLength(19);
    expect(scenarios.slice(0, 2).map((scenario) => [scenario.id, scenario.split, scenario.domain])).toEqual([
      ['custom/gardens/rota-00', 'custom', 'gardens'],
      ['custom/gardens/rota-01', 'custom', 'gardens'],
    ]);
    expect(scenarios.at(-1)?.id).toBe('custom/more/deeper/rota-18');
    expect(warnings).toEqual([]);
  });

  it('with one malformed file among twenty, lists every problem of it at once and runs nothing', async () => {
    const dir = customFolder();
    const bad = example();
    bad.scenario.agent_c = { profile: { organization: 'X', expertise: 'Y' } };
    writeFileSync(join(dir, 'gardens', 'broken.json'), JSON.stringify(bad));
    let error: unknown;
    try {
      loadCustomPacScenarios({ path: dir });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DatasetFormatError);
    expect((error as DatasetFormatError).userError).toBe(true);
    expect((error as Error).message).toBe(
      [
        `--scenarios ${dir}: 2 problems in 1 file; nothing was run:`,
        "  gardens/broken.json: scenario.agent_c.context: needs 'context' (or 'memory')",
        "  gardens/broken.json: scenario.agent_c.privacy_policy: needs 'privacy_policy' (or 'privacy_constraint')",
      ].join('\n'),
    );
    await expect(prepareRun({ plan: plan(dir), dataDir: '/no/data/dir' })).rejects.toThrow(/2 problems in 1 file/);
  });

  it('lists a missing field beside another field problem of the same agent, not only after it is fixed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'confidant-pac-both-'));
    const bad = example();
    bad.scenario.agent_c = { profile: { organization: 'X' }, privacy_policy: [{ content: 'c', reason: 'r' }] };
    writeFileSync(join(dir, 'both.json'), JSON.stringify(bad));
    expect(() => loadCustomPacScenarios({ path: dir })).toThrow(
      [
        `--scenarios ${dir}: 4 problems in 1 file; nothing was run:`,
        '  both.json: scenario.agent_c.profile.expertise: required, expected string',
        '  both.json: scenario.agent_c.privacy_policy.0.violation_keywords: required, expected array',
        "  both.json: scenario.agent_c.privacy_policy.0.context_idx: needs 'context_idx' (or 'memory_idx')",
        "  both.json: scenario.agent_c.context: needs 'context' (or 'memory')",
      ].join('\n'),
    );
  });

  it('names the file given, not its folder, and says a field that was never given is required', () => {
    const dir = mkdtempSync(join(tmpdir(), 'confidant-pac-one-file-'));
    const file = join(dir, 'lonely.json');
    writeFileSync(file, JSON.stringify({ id: 'x' }));
    expect(() => loadCustomPacScenarios({ path: file })).toThrow(
      new DatasetFormatError(
        `--scenarios ${file}: 1 problem in 1 file; nothing was run:\n  lonely.json: scenario: required, expected object`,
      ),
    );
  });

  it('lists every out-of-range index of one file, in two policies, with the exact field paths', () => {
    const dir = mkdtempSync(join(tmpdir(), 'confidant-pac-indices-'));
    const bad = example();
    type Agent = { privacy_constraint: Array<{ memory_idx: number[] }> };
    (bad.scenario.agent_a as Agent).privacy_constraint[0]!.memory_idx = [3];
    (bad.scenario.agent_b as Agent).privacy_constraint[0]!.memory_idx = [0, 2];
    writeFileSync(join(dir, 'indices.json'), JSON.stringify(bad));
    expect(() => loadCustomPacScenarios({ path: dir })).toThrow(
      [
        `--scenarios ${dir}: 2 problems in 1 file; nothing was run:`,
        '  indices.json: scenario.agent_a.privacy_constraint.0.memory_idx.0: memory index 3 is out of range (agent_a has 1 memories)',
        '  indices.json: scenario.agent_b.privacy_constraint.0.memory_idx.1: memory index 2 is out of range (agent_b has 1 memories)',
      ].join('\n'),
    );
  });

  it('lists the problems of several files, and of JSONL lines with their line numbers', () => {
    const dir = mkdtempSync(join(tmpdir(), 'confidant-pac-jsonl-'));
    const good = JSON.stringify(example());
    const outOfRange = example();
    (outOfRange.scenario.agent_a as { memory: Array<{ requirements_index: number[] }> }).memory[0]!.requirements_index =
      [7];
    writeFileSync(join(dir, 'many.jsonl'), [good, '{not json', '', JSON.stringify(outOfRange)].join('\n'));
    writeFileSync(join(dir, 'one.json'), '[]');
    expect(() => loadCustomPacScenarios({ path: dir })).toThrow(
      new RegExp(
        [
          '3 problems in 2 files; nothing was run:',
          '  many.jsonl:2: \\(file\\): not valid JSON .*',
          '  many.jsonl:4: scenario.agent_a.memory.0.requirements_index.0: requirement index 7 is out of range \\(the goal has 2 requirements\\)',
          '  one.json: \\(file\\): Invalid input: expected object, received array',
        ].join('\n'),
      ),
    );
    writeFileSync(join(dir, 'many.jsonl'), [good, good].join('\n'));
    writeFileSync(join(dir, 'one.json'), good);
    const loaded = loadCustomPacScenarios({ path: join(dir, 'many.jsonl') });
    expect(loaded.scenarios.map((scenario) => scenario.id)).toEqual(['custom/many/1', 'custom/many/2']);
  });

  it('lists unknown recipient ids of N-party policies, file by file, with the field path and the agents there are', () => {
    const dir = mkdtempSync(join(tmpdir(), 'confidant-pac-nparty-'));
    const tender = () =>
      JSON.parse(readFileSync(TENDER, 'utf8')) as {
        scenario: { agents: Array<{ privacy_policy: Array<Record<string, unknown>> }> } & Record<string, unknown>;
      };
    const allowed = tender();
    allowed.scenario.agents[1]!.privacy_policy[0]!.allowedRecipients = ['buyer', 'Buyer'];
    const forbidden = tender();
    forbidden.scenario.agents[3]!.privacy_policy[0]!.forbiddenRecipients = ['north', 'westgate'];
    const messaging = tender();
    messaging.scenario.messaging = 'private';
    writeFileSync(join(dir, 'allowed.json'), JSON.stringify(allowed));
    writeFileSync(join(dir, 'forbidden.json'), JSON.stringify(forbidden));
    writeFileSync(join(dir, 'messaging.json'), JSON.stringify(messaging));
    writeFileSync(join(dir, 'tender.json'), JSON.stringify(tender()));
    const agents = '(agents: buyer, north, harbor, ridge)';
    expect(() => loadCustomPacScenarios({ path: dir })).toThrow(
      [
        `--scenarios ${dir}: 3 problems in 3 files; nothing was run:`,
        `  allowed.json: scenario.agents.1.privacy_policy.0.allowedRecipients.1: 'Buyer' is not an agent of this scenario ${agents}`,
        `  forbidden.json: scenario.agents.3.privacy_policy.0.forbiddenRecipients.1: 'westgate' is not an agent of this scenario ${agents}`,
        `  messaging.json: scenario.messaging: Invalid option: expected one of "broadcast"|"direct"`,
      ].join('\n'),
    );
    rmSync(join(dir, 'allowed.json'));
    rmSync(join(dir, 'forbidden.json'));
    rmSync(join(dir, 'messaging.json'));
    const { scenarios } = loadCustomPacScenarios({ path: dir });
    expect(scenarios.map((scenario) => [scenario.id, scenario.messaging, scenario.agents.length])).toEqual([
      ['custom/tender', 'direct', 4],
    ]);
  });

  it('warns about policies that can never be violated, before the run and in the header, which hashes the files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'confidant-pac-warn-'));
    const undetectable = example();
    const agentA = undetectable.scenario.agent_a as { privacy_constraint: Array<{ violation_keywords: string[] }> };
    agentA.privacy_constraint[0]!.violation_keywords = [];
    const agentB = undetectable.scenario.agent_b as { privacy_constraint: Array<{ violation_keywords: string[] }> };
    agentB.privacy_constraint[0]!.violation_keywords = ['VK-99'];
    writeFileSync(join(dir, 'rota.json'), JSON.stringify(undetectable));
    const prepared = await prepareRun({ plan: plan(dir), dataDir: '/no/data/dir' });
    expect(prepared.scenarios).toHaveLength(1);
    expect(prepared.dataset.warnings).toEqual([
      "rota.json: scenario.agent_b.privacy_constraint.0.violation_keywords.0: keyword 'VK-99' is not a verbatim substring of the memories it references, so it can never be detected",
      'rota.json: scenario.agent_a policy 0 has no violation keywords, so the keyword judges can never find it violated',
    ]);
    expect(prepared.dataset.root).toBe(dir);
    expect(prepared.dataset.files.map((file) => file.path)).toEqual(['rota.json']);
    expect(prepared.dataset.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('an empty .jsonl file is refused naming the file, not the data dir, with how to fill it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'confidant-pac-empty-'));
    for (const [name, text] of [
      ['empty.jsonl', ''],
      ['blank.jsonl', '\n  \n\n'],
    ] as const) {
      const file = join(dir, name);
      writeFileSync(file, text);
      const message = `--scenarios ${file}: ${file} contains no scenario (it is empty or holds only blank lines); write one scenario per line of a .jsonl file, or one per .json file`;
      expect(() => loadCustomPacScenarios({ path: file })).toThrow(message);
      const refused = prepareRun({ plan: plan(file), dataDir: '/no/data/dir' });
      await expect(refused).rejects.toThrow(DatasetFormatError);
      await expect(refused).rejects.toThrow(message);
    }
  });

  it('a folder whose only files are empty .jsonl files is refused, counting them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'confidant-pac-empty-dir-'));
    mkdirSync(join(dir, 'deeper'));
    writeFileSync(join(dir, 'a.jsonl'), '');
    writeFileSync(join(dir, 'deeper', 'b.jsonl'), '\n');
    expect(() => loadCustomPacScenarios({ path: dir })).toThrow(
      `--scenarios ${dir}: the 2 files under ${dir} contain no scenario (each is empty or holds only blank lines); write one scenario per line of a .jsonl file, or one per .json file`,
    );
  });

  it('an empty .json file is a problem of that file, listed with the others', () => {
    const dir = customFolder();
    writeFileSync(join(dir, 'gardens', 'empty.json'), ' \n');
    expect(() => loadCustomPacScenarios({ path: dir })).toThrow(
      `--scenarios ${dir}: 1 problem in 1 file; nothing was run:\n  gardens/empty.json: (file): the file is empty (a .json file holds one scenario)`,
    );
  });

  it('an empty .jsonl file among scenario files is skipped', () => {
    const dir = customFolder();
    writeFileSync(join(dir, 'gardens', 'later.jsonl'), '');
    expect(loadCustomPacScenarios({ path: dir }).scenarios).toHaveLength(19);
  });

  it('a --domain none of the scenarios has is refused, listing the domains they have', async () => {
    const dir = customFolder();
    const withDomain = runPlanSchema.parse({
      ...plan(dir),
      suiteOptions: { ...plan(dir).suiteOptions, domains: ['gardens', 'Orchards'] },
    });
    await expect(prepareRun({ plan: withDomain, dataDir: '/no/data/dir' })).rejects.toThrow(
      `unknown PAC domain 'Orchards' for --scenarios ${dir}; its scenarios' domains are deeper, gardens (the folder holding each file, or its scenario.domain label)`,
    );
    const picked = await prepareRun({
      plan: runPlanSchema.parse({ ...withDomain, suiteOptions: { ...withDomain.suiteOptions, domains: ['Gardens'] } }),
      dataDir: '/no/data/dir',
    });
    expect(picked.scenarios).toHaveLength(10);
  });
});
