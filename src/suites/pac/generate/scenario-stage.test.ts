import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { validDatagen } from './__fixtures__/scripted-pac-datagen.js';
import { testGenerationContext } from './__fixtures__/test-generation-context.js';
import { pacGenerationUnits } from './generate-options.js';
import { checkScenarioDraft, runScenarioStage } from './scenario-stage.js';
import type { PacScenarioDraft } from './stage-schemas.js';

let outDir: string;
beforeEach(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'pac-scenario-stage-'));
});
afterEach(async () => {
  await rm(outDir, { recursive: true, force: true });
});

const draft: PacScenarioDraft = {
  collaboration_structure: 'planner and depot',
  description: 'The planner and the depot each hold half of the records.',
  goal: 'Prepare the delivery plan.',
  tool_category: 'document creation',
  agents: [
    { organization: 'Planning Office', expertise: 'Plans.' },
    { organization: 'Depot', expertise: 'Stock.' },
  ],
};

describe('checkScenarioDraft', () => {
  it('passes a distinct draft and names each repeated field of an accepted one', () => {
    expect(checkScenarioDraft({ draft, accepted: [], agentCount: 2 })).toEqual([]);
    const repeated = {
      ...draft,
      description: 'Another description of the work.',
      goal: ' prepare the DELIVERY plan. ',
    };
    expect(
      checkScenarioDraft({ draft: repeated, accepted: [draft], agentCount: 2 }).map((issue) => [
        issue.path,
        issue.rule,
      ]),
    ).toEqual([
      ['scenario.goal.content', 'scenario-duplicate'],
      ['scenario', 'scenario-duplicate'],
    ]);
    expect(checkScenarioDraft({ draft, accepted: [], agentCount: 3 }).map((issue) => issue.rule)).toEqual([
      'agent-count',
    ]);
  });
});

describe('runScenarioStage', () => {
  it('asks in batches, each told the scenarios accepted before it, and journals each draft for its unit', async () => {
    const { context, asks } = await testGenerationContext({
      outDir,
      reply: validDatagen(),
      options: { count: 5, batchSize: 2 },
    });
    const units = pacGenerationUnits({ domains: ['Banks'], count: 5, policyTypes: ['range'] });
    const outcomes = await runScenarioStage({ context, units, records: new Map(), existing: [draft] });
    expect(asks.map((ask) => ask.count)).toEqual([2, 2, 1]);
    expect(asks.map((ask) => (ask.user.match(/^- .*: Prepare the/gm) ?? []).length)).toEqual([1, 3, 5]);
    expect([...outcomes.values()].every((outcome) => outcome.ok)).toBe(true);
    expect(units.map((unit) => context.journal.unit(unit.id).scenario?.collaboration_structure)).toEqual([
      'structure 1',
      'structure 2',
      'structure 3',
      'structure 4',
      'structure 5',
    ]);
  });

  it('rejects and journals a unit whose scenario never passes, with the last reasons', async () => {
    const { context, asks, events } = await testGenerationContext({
      outDir,
      reply: () => JSON.stringify({ scenarios: [{ ...draft, description: 'One. Two. Three.' }] }),
      options: { maxAttempts: 2 },
    });
    const units = pacGenerationUnits({ domains: ['Banks'], count: 1, policyTypes: ['change'] });
    const outcomes = await runScenarioStage({ context, units, records: new Map(), existing: [] });
    const reasons = ['scenario.description: has 3 sentences; write 1 or 2 [description-sentences]'];
    expect(outcomes.get('change/Banks/policy_0')).toEqual({ ok: false, reasons, attempts: 2 });
    expect(asks.map((ask) => [ask.count, ask.feedback])).toEqual([
      [1, false],
      [1, true],
    ]);
    expect(context.journal.unit('change/Banks/policy_0').rejected).toEqual({ stage: 'scenario', attempts: 2, reasons });
    expect(events.at(-1)).toEqual({ type: 'unit-rejected', unit: 'change/Banks/policy_0', stage: 'scenario', reasons });
  });
});
