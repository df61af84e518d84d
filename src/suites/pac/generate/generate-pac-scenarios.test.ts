import { mkdtemp, readdir, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GENERATION_DIR, GENERATION_JOURNAL_FILE, GenerationError } from '../../../generation/index.js';
import { PlanValidationError, RunInterruptedError } from '../../../spec/errors.js';
import { loadPacScenarios } from '../load-scenarios.js';
import {
  type DatagenAsk,
  scriptedDatagenRoles,
  validConstraint,
  validDatagen,
} from './__fixtures__/scripted-pac-datagen.js';
import { generatePacScenarios, pacGenerationOutcome } from './generate-pac-scenarios.js';
import type { PacGenerateEvent } from './generation-context.js';

let work: string;
let outDir: string;
beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'pac-generate-'));
  outDir = join(work, 'data', 'pacbench', 'scenarios');
});
afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

function stageKey(ask: DatagenAsk): string {
  return `${ask.stage}${ask.agent === undefined ? '' : `:${ask.agent}`}`;
}

describe('generatePacScenarios', () => {
  it('generates both policy types end to end into files the suite loads unchanged', async () => {
    const { models, asks } = scriptedDatagenRoles({ reply: validDatagen() });
    const events: PacGenerateEvent[] = [];
    const result = await generatePacScenarios({
      domains: ['Banks', 'Oil, Gas and Consumable Fuels'],
      count: 2,
      models,
      outDir,
      emit: (event) => events.push(event),
    });
    expect(result.rejected).toEqual([]);
    expect(result.resumed).toBe(0);
    expect(result.dataDir).toBe(join(work, 'data'));
    expect(pacGenerationOutcome(result)).toBe('complete');
    expect(result.written).toEqual(
      [
        'change/Banks/policy_0',
        'change/Banks/policy_1',
        'change/Oil_Gas_and_Consumable_Fuels/policy_0',
        'change/Oil_Gas_and_Consumable_Fuels/policy_1',
        'range/Banks/policy_0',
        'range/Banks/policy_1',
        'range/Oil_Gas_and_Consumable_Fuels/policy_0',
        'range/Oil_Gas_and_Consumable_Fuels/policy_1',
      ].map((id) => join(outDir, `${id}.json`)),
    );
    // One batch call per (type, domain), then requirements, 2 memories and 2 constraints per unit.
    expect(asks.filter((ask) => ask.stage === 'scenario').map((ask) => [ask.domain, ask.count])).toEqual([
      ['Banks', 2],
      ['Oil, Gas and Consumable Fuels', 2],
      ['Banks', 2],
      ['Oil, Gas and Consumable Fuels', 2],
    ]);
    expect(asks).toHaveLength(4 + 8 * 5);
    expect(result.calls).toBe(44);
    expect(events.filter((event) => event.type === 'unit-written')).toHaveLength(8);

    const scenarios = await loadPacScenarios({ dataDir: join(work, 'data'), split: 'all' });
    expect(scenarios.map((scenario) => scenario.id)).toEqual(
      result.written.map((path) => path.slice(outDir.length + 1, -5)),
    );
    const first = scenarios.find((scenario) => scenario.id === 'range/Banks/policy_0');
    expect(first?.policyType).toBe('range');
    expect(first?.goal.requirements).toHaveLength(5);
    expect(first?.agents.map((agent) => agent.policies.map((policy) => policy.content))).toEqual([
      ['The supervisor names in the lot table must not be disclosed.'],
      ['The supervisor names in the lot table must not be disclosed.'],
    ]);
    expect(first?.agents[0]?.policies[0]?.violationKeywords).toEqual(['Mira Holt', 'Owen Pratt']);
    const change = scenarios.find((scenario) => scenario.id === 'change/Banks/policy_1');
    expect(change?.agents[1]?.policies[0]?.content).toBe(
      'The supervisor names in the lot table must be masked before sharing.',
    );
    // The two scenarios of one domain and type differ.
    expect(new Set(scenarios.map((scenario) => scenario.goal.content)).size).toBe(8);

    // The files use the simulator spelling and keep the generator's bookkeeping out.
    const raw = JSON.parse(await readFile(join(outDir, 'range/Banks/policy_0.json'), 'utf8'));
    expect(Object.keys(raw.scenario)).toEqual(['description', 'goal', 'agent_a', 'agent_b']);
    expect(Object.keys(raw.scenario.agent_a)).toEqual(['profile', 'context', 'privacy_policy']);
    expect(Object.keys(raw.scenario.agent_a.privacy_policy[0])).toEqual([
      'content',
      'violation_keywords',
      'context_idx',
      'reason',
    ]);
  });

  it.each([
    [
      'a violation keyword not verbatim in its memory',
      { ...validConstraint('agent_a', 'range'), violation_keywords: ['Mira Holt', 'Owen Pratt-Smith'] },
      'keyword-verbatim',
    ],
    [
      'two policies for one agent',
      [validConstraint('agent_a', 'range'), validConstraint('agent_a', 'range')],
      'policy-count',
    ],
    [
      'a two-sentence policy',
      {
        ...validConstraint('agent_a', 'range'),
        content: 'The supervisor names must not be disclosed. Lot numbers may be shared.',
      },
      'policy-sentence',
    ],
  ])('rejects %s and regenerates only that agent constraint', async (_label, plantedConstraint, rule) => {
    const valid = validDatagen();
    let planted = false;
    const { models, asks } = scriptedDatagenRoles({
      reply: (ask) => {
        if (ask.stage === 'constraint' && ask.agent === 'agent_a' && !planted) {
          planted = true;
          const list = Array.isArray(plantedConstraint) ? plantedConstraint : [plantedConstraint];
          return JSON.stringify({ privacy_constraint: list });
        }
        return valid(ask);
      },
    });
    const events: PacGenerateEvent[] = [];
    const result = await generatePacScenarios({
      domains: ['Banks'],
      policyTypes: ['range'],
      models,
      outDir,
      emit: (event) => events.push(event),
    });
    expect(result.rejected).toEqual([]);
    expect(result.written).toEqual([join(outDir, 'range/Banks/policy_0.json')]);
    expect(asks.map(stageKey)).toEqual([
      'scenario',
      'requirements',
      'memory:agent_a',
      'memory:agent_b',
      'constraint:agent_a',
      'constraint:agent_a',
      'constraint:agent_b',
    ]);
    const failed = events.filter((event) => event.type === 'stage-failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({
      unit: 'range/Banks/policy_0',
      stage: 'constraint',
      agent: 'agent_a',
      attempt: 1,
    });
    const reasons = failed[0]?.type === 'stage-failed' ? failed[0].reasons : [];
    expect(reasons.some((reason) => reason.endsWith(`[${rule}]`))).toBe(true);
    // The regeneration request carries the broken rule as feedback.
    const retry = asks[5];
    expect(retry?.feedback).toBe(true);
    expect(retry?.user).toContain(`[${rule}]`);
    const [scenario] = await loadPacScenarios({ dataDir: join(work, 'data'), split: 'range' });
    expect(scenario?.agents[0]?.policies).toHaveLength(1);
    expect(scenario?.agents[0]?.policies[0]?.violationKeywords).toEqual(['Mira Holt', 'Owen Pratt']);
  });

  it('rejects a unit with its reasons when the model keeps violating, and reports it again on a rerun without calls', async () => {
    const valid = validDatagen();
    const reply = (ask: DatagenAsk) =>
      ask.stage === 'constraint' && ask.agent === 'agent_b'
        ? JSON.stringify({
            privacy_constraint: [{ ...validConstraint('agent_b', 'range'), violation_keywords: ['Nobody Known'] }],
          })
        : valid(ask);
    const first = scriptedDatagenRoles({ reply });
    const result = await generatePacScenarios({
      domains: ['Banks'],
      policyTypes: ['range'],
      models: first.models,
      outDir,
      maxAttempts: 2,
    });
    expect(result.written).toEqual([]);
    expect(pacGenerationOutcome(result)).toBe('failed');
    expect(result.rejected).toEqual([
      {
        unit: 'range/Banks/policy_0',
        stage: 'constraint',
        agent: 'agent_b',
        reason:
          "scenario.agent_b.privacy_policy.0.violation_keywords.0: 'Nobody Known' does not appear verbatim in the memories it references [keyword-verbatim]; " +
          'scenario.agent_b.privacy_policy.0.context_idx: memory 0 is referenced but none of the keywords appears in it [memory-keyword]',
        reasons: [
          "scenario.agent_b.privacy_policy.0.violation_keywords.0: 'Nobody Known' does not appear verbatim in the memories it references [keyword-verbatim]",
          'scenario.agent_b.privacy_policy.0.context_idx: memory 0 is referenced but none of the keywords appears in it [memory-keyword]',
        ],
      },
    ]);
    expect(first.asks.filter((ask) => ask.stage === 'constraint' && ask.agent === 'agent_b')).toHaveLength(2);
    await expect(readdir(join(outDir, 'range'))).resolves.toEqual([]);

    const again = scriptedDatagenRoles({ reply });
    const rerun = await generatePacScenarios({
      domains: ['Banks'],
      policyTypes: ['range'],
      models: again.models,
      outDir,
      maxAttempts: 2,
    });
    expect(again.asks).toEqual([]);
    expect(rerun.rejected).toEqual(result.rejected);

    // Raising --max-attempts continues only the stage that gave up, with its reasons as feedback.
    const fixed = scriptedDatagenRoles({ reply: validDatagen() });
    const raised = await generatePacScenarios({
      domains: ['Banks'],
      policyTypes: ['range'],
      models: fixed.models,
      outDir,
      maxAttempts: 3,
    });
    expect(fixed.asks.map(stageKey)).toEqual(['constraint:agent_b']);
    expect(fixed.asks[0]?.user).toContain('[keyword-verbatim]');
    expect(raised.written).toEqual([join(outDir, 'range/Banks/policy_0.json')]);
    expect(raised.rejected).toEqual([]);
  });

  it('never accepts garbage: an unparseable reply is asked again and then counts as a failed attempt', async () => {
    const valid = validDatagen();
    let requirementsCalls = 0;
    const { models, asks } = scriptedDatagenRoles({
      reply: (ask) => {
        if (ask.stage === 'requirements') {
          requirementsCalls += 1;
          if (requirementsCalls <= 2) return 'Sure! Here are the requirements: 1. lots 2. dates';
          if (requirementsCalls === 3) return JSON.stringify({ requirements: 'not a list' });
        }
        return valid(ask);
      },
    });
    const events: PacGenerateEvent[] = [];
    const result = await generatePacScenarios({
      domains: ['Banks'],
      policyTypes: ['change'],
      models,
      outDir,
      maxParseRetries: 1,
      emit: (event) => events.push(event),
    });
    expect(result.written).toHaveLength(1);
    expect(asks.filter((ask) => ask.stage === 'requirements')).toHaveLength(4);
    const failed = events.filter((event) => event.type === 'stage-failed');
    expect(failed.map((event) => event.type === 'stage-failed' && [event.stage, event.attempt])).toEqual([
      ['requirements', 1],
    ]);
    const reasons = failed[0]?.type === 'stage-failed' ? failed[0].reasons : [];
    expect(reasons[0]).toMatch(/^no parseable 'pac_requirements' reply in 2 tries: /);
  });

  it('regenerates a scenario the batch left out, alone, and rejects only the stage that failed', async () => {
    const valid = validDatagen();
    let batches = 0;
    const { models, asks } = scriptedDatagenRoles({
      reply: (ask) => {
        if (ask.stage === 'scenario' && batches === 0) {
          batches += 1;
          const reply = JSON.parse(valid({ ...ask, count: 2 }));
          reply.scenarios[1].goal = 'Write the privacy review. Then send it.';
          return JSON.stringify(reply);
        }
        return valid(ask);
      },
    });
    const events: PacGenerateEvent[] = [];
    const result = await generatePacScenarios({
      domains: ['Banks'],
      policyTypes: ['range'],
      count: 3,
      models,
      outDir,
      emit: (event) => events.push(event),
    });
    expect(result.rejected).toEqual([]);
    expect(result.written).toHaveLength(3);
    expect(asks.filter((ask) => ask.stage === 'scenario').map((ask) => [ask.count, ask.feedback])).toEqual([
      [3, false],
      [1, true],
      [1, true],
    ]);
    const failed = events.flatMap((event) =>
      event.type === 'stage-failed' ? [[event.unit, event.reasons.length]] : [],
    );
    expect(failed).toEqual([
      ['range/Banks/policy_1', 2],
      ['range/Banks/policy_2', 1],
    ]);
  });

  it('resumes after an interruption without redoing finished work, writing each scenario once', async () => {
    const controller = new AbortController();
    const valid = validDatagen();
    const first = scriptedDatagenRoles({
      reply: valid,
      signal: controller.signal,
      onCall: (_ask, call) => {
        // Interrupt in the middle: the batch and a few stages of the three units are done.
        if (call.callIndex === 8) controller.abort();
      },
    });
    const events: PacGenerateEvent[] = [];
    const options = { domains: ['Banks'], policyTypes: ['range' as const], count: 3, outDir, concurrency: 1 };
    await expect(
      generatePacScenarios({
        ...options,
        models: first.models,
        signal: controller.signal,
        emit: (event) => events.push(event),
      }),
    ).rejects.toBeInstanceOf(RunInterruptedError);
    const writtenIn = (list: PacGenerateEvent[]) =>
      list.flatMap((event) => (event.type === 'unit-written' ? [event.unit] : []));
    const acceptedIn = (list: PacGenerateEvent[]) =>
      list.flatMap((event) =>
        event.type === 'stage-accepted' ? [`${event.unit} ${event.stage} ${event.agent ?? '-'}`] : [],
      );
    const writtenBefore = writtenIn(events);
    const acceptedBefore = acceptedIn(events);
    expect(first.asks).toHaveLength(9);
    expect(writtenBefore.length).toBeLessThan(3);
    // Some unfinished unit already has accepted stages: the resume must continue it mid-way.
    const midway = acceptedBefore.filter(
      (entry) => !entry.includes(' scenario ') && !writtenBefore.includes(entry.split(' ')[0] ?? ''),
    );
    expect(midway.length).toBeGreaterThan(0);

    const second = scriptedDatagenRoles({ reply: valid });
    const resumedEvents: PacGenerateEvent[] = [];
    const result = await generatePacScenarios({
      ...options,
      models: second.models,
      emit: (event) => resumedEvents.push(event),
    });
    expect(result.rejected).toEqual([]);
    expect(result.resumed).toBe(writtenBefore.length);
    expect(result.written).toEqual([0, 1, 2].map((k) => join(outDir, `range/Banks/policy_${k}.json`)));
    const writtenAfter = writtenIn(resumedEvents);
    expect([...writtenBefore, ...writtenAfter].sort()).toEqual([
      'range/Banks/policy_0',
      'range/Banks/policy_1',
      'range/Banks/policy_2',
    ]);
    // Every stage of every unit was accepted exactly once over both sessions: 3 scenarios
    // (one batch), then requirements, two memories and two constraints per unit.
    const acceptedAfter = acceptedIn(resumedEvents);
    expect(acceptedAfter.filter((entry) => acceptedBefore.includes(entry))).toEqual([]);
    expect(new Set([...acceptedBefore, ...acceptedAfter]).size).toBe(3 + 3 * 5);
    expect(acceptedBefore.length + acceptedAfter.length).toBe(3 + 3 * 5);
    expect(second.asks.filter((ask) => ask.stage === 'scenario')).toEqual([]);
    // No call is repeated: even the reply that arrived as the abort came is kept.
    expect(first.asks.length + second.asks.length).toBe(1 + 3 * 5);
    const journal = await readFile(join(outDir, GENERATION_DIR, GENERATION_JOURNAL_FILE), 'utf8');
    const kinds = journal
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).kind);
    expect(kinds.filter((kind) => kind === 'done')).toHaveLength(3);

    // A third run is idempotent: no call, nothing rewritten.
    const before = await stat(join(outDir, 'range/Banks/policy_0.json'));
    const third = scriptedDatagenRoles({ reply: valid });
    const again = await generatePacScenarios({ ...options, models: third.models });
    expect(third.asks).toEqual([]);
    expect(again).toMatchObject({ resumed: 3, calls: 0, written: result.written, rejected: [] });
    expect((await stat(join(outDir, 'range/Banks/policy_0.json'))).mtimeMs).toBe(before.mtimeMs);

    // A deleted file is rewritten from the journal, identical; an edited one is left alone.
    const text = await readFile(join(outDir, 'range/Banks/policy_1.json'), 'utf8');
    await unlink(join(outDir, 'range/Banks/policy_1.json'));
    await writeFile(join(outDir, 'range/Banks/policy_2.json'), '{"edited": true}\n');
    const fourth = scriptedDatagenRoles({ reply: valid });
    await generatePacScenarios({ ...options, models: fourth.models });
    expect(fourth.asks).toEqual([]);
    expect(await readFile(join(outDir, 'range/Banks/policy_1.json'), 'utf8')).toBe(text);
    expect(await readFile(join(outDir, 'range/Banks/policy_2.json'), 'utf8')).toBe('{"edited": true}\n');
  });

  it('refuses to continue a generation with another seed', async () => {
    await generatePacScenarios({
      domains: ['Banks'],
      policyTypes: ['range'],
      outDir,
      models: scriptedDatagenRoles({ reply: validDatagen() }).models,
    });
    await expect(
      generatePacScenarios({
        domains: ['Banks'],
        policyTypes: ['range'],
        outDir,
        seed: 9,
        models: scriptedDatagenRoles({ reply: validDatagen() }).models,
      }),
    ).rejects.toThrow(GenerationError);
  });

  it('needs a datagen model and valid options', async () => {
    const { models } = scriptedDatagenRoles({ reply: validDatagen() });
    await expect(generatePacScenarios({ domains: [], outDir, models })).rejects.toThrow(
      /invalid generate pac options: domains: name at least one domain/,
    );
    const none = { has: () => false, model: () => models.model('datagen'), ensemble: () => [] };
    await expect(generatePacScenarios({ domains: ['Banks'], outDir, models: none })).rejects.toBeInstanceOf(
      PlanValidationError,
    );
  });
});
