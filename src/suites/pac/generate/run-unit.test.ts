import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { validConstraint, validDatagen, validMemory } from './__fixtures__/scripted-pac-datagen.js';
import { testGenerationContext } from './__fixtures__/test-generation-context.js';
import { pacGenerationUnits } from './generate-options.js';
import { loadProblem, runUnit } from './run-unit.js';

let outDir: string;
beforeEach(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'pac-unit-'));
});
afterEach(async () => {
  await rm(outDir, { recursive: true, force: true });
});

const [unit] = pacGenerationUnits({ domains: ['Banks'], count: 1, policyTypes: ['range'] });
const scenario = {
  collaboration_structure: 'planner and depot',
  description: 'The planner and the depot each hold half of the records.',
  goal: 'Prepare the delivery plan.',
  tool_category: 'document creation' as const,
  agents: [
    { organization: 'Planning Office', expertise: 'Plans.' },
    { organization: 'Depot', expertise: 'Stock.' },
  ],
};
const requirements = [0, 1, 2, 3, 4].map((index) => `Section ${index + 1} lists wave ${index + 1}.`);

describe('runUnit', () => {
  it('asks only for the stages the journal lacks, then writes and journals the file', async () => {
    const { context, asks, events } = await testGenerationContext({ outDir, reply: validDatagen() });
    if (unit === undefined) throw new Error('no unit');
    await context.journal.append({ kind: 'stage', unit: unit.id, stage: 'scenario', attempt: 1, output: scenario });
    await context.journal.append({
      kind: 'stage',
      unit: unit.id,
      stage: 'requirements',
      attempt: 1,
      output: requirements,
    });
    await context.journal.append({
      kind: 'stage',
      unit: unit.id,
      stage: 'memory',
      agent: 'agent_a',
      attempt: 1,
      output: validMemory('agent_a'),
    });
    await context.journal.append({
      kind: 'stage',
      unit: unit.id,
      stage: 'constraint',
      agent: 'agent_a',
      attempt: 1,
      output: [validConstraint('agent_a', 'range')],
    });
    const outcome = await runUnit({ context, unit, record: context.journal.unit(unit.id) });
    expect(outcome).toEqual({ status: 'written', file: 'range/Banks/policy_0.json' });
    expect(asks.map((ask) => `${ask.stage}:${ask.agent}`)).toEqual(['memory:agent_b', 'constraint:agent_b']);
    // Agent B's memory prompt sees agent A's accepted memory.
    expect(asks[0]?.user).toContain('Mira Holt');
    const written = JSON.parse(await readFile(join(outDir, 'range/Banks/policy_0.json'), 'utf8'));
    expect(written.scenario.goal).toEqual({ content: 'Prepare the delivery plan.', requirements });
    expect(written.scenario.agent_b.privacy_policy[0].violation_keywords).toEqual(['Ravi Senna', 'Ilse Brandt']);
    expect(context.journal.unit(unit.id).done).toBe('range/Banks/policy_0.json');
    expect(events.at(-1)).toEqual({ type: 'unit-written', unit: unit.id, file: 'range/Banks/policy_0.json' });
  });

  it('rejects the unit at the memory stage of the agent whose memories keep failing', async () => {
    const valid = validDatagen();
    const { context } = await testGenerationContext({
      outDir,
      options: { maxAttempts: 1 },
      reply: (ask) =>
        ask.stage === 'memory' && ask.agent === 'agent_b'
          ? JSON.stringify({
              needs: [],
              memory: [{ requirements_index: [1, 3], content: validMemory('agent_b')[0]?.content }],
            })
          : valid(ask),
    });
    if (unit === undefined) throw new Error('no unit');
    await context.journal.append({ kind: 'stage', unit: unit.id, stage: 'scenario', attempt: 1, output: scenario });
    const outcome = await runUnit({ context, unit, record: context.journal.unit(unit.id) });
    expect(outcome).toEqual({
      status: 'rejected',
      stage: 'memory',
      agent: 'agent_b',
      reasons: [
        'scenario.agent_b.context.0.requirements_index: covers requirements 1, 3; one memory may serve several requirements only if they are adjacent [memory-adjacent]',
      ],
    });
    expect(context.journal.unit(unit.id).rejected).toMatchObject({ stage: 'memory', agent: 'agent_b', attempts: 1 });
  });
});

describe('loadProblem', () => {
  it('says why the suite would refuse a file, or nothing when it loads', () => {
    if (unit === undefined) throw new Error('no unit');
    expect(loadProblem({ scenario: {} }, unit)).toMatch(/^the file does not match the scenario schema: /);
    const file = {
      scenario: {
        description: 'd',
        goal: { content: 'g', requirements: ['r'] },
        agent_a: { profile: { organization: 'a', expertise: 'a' }, context: [], privacy_policy: [] },
        agent_b: {
          profile: { organization: 'b', expertise: 'b' },
          context: [],
          privacy_policy: [{ content: 'p', violation_keywords: ['k'], context_idx: [2], reason: 'r' }],
        },
      },
    };
    expect(loadProblem(file, unit)).toBe(
      'scenario.agent_b.privacy_policy.0.context_idx.0: memory index 2 is out of range (agent_b has 0 memories)',
    );
    file.scenario.agent_b.privacy_policy = [];
    expect(loadProblem(file, unit)).toBeUndefined();
  });
});
