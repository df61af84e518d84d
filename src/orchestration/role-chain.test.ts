import { describe, expect, it } from 'vitest';
import { createEventRecorder } from '../runner/create-event-recorder.js';
import { type ScriptedCall, scriptedModelRoles } from '../runner/testing/scripted-model-roles.js';
import type { TaskPrompt } from '../spec/task-prompt.js';
import { type ChainNode, leafPaths, runRoleChain } from './role-chain.js';
import { allText, finalActionPrompt } from './testing/task-prompt-fixtures.js';

const ROLES = ['generator', 'verifier', 'refiner', 'extractor', 'checker', 'executor'];

/** Runs a chain with scripted roles; `reply` decides each answer. */
async function run({
  topology,
  branching,
  reply,
  prompt = finalActionPrompt(),
  ...rest
}: {
  topology: string;
  branching?: number[] | string;
  reply: (call: ScriptedCall) => string | Promise<string>;
  prompt?: TaskPrompt;
  temperatureFor?: Parameters<typeof runRoleChain>[0]['temperatureFor'];
  baseSampleOrdinal?: number;
  settings?: { maxOutputTokens?: number; temperature?: number };
}) {
  const { factory, calls } = scriptedModelRoles({ respond: reply, roles: ROLES });
  const recorder = createEventRecorder();
  const signal = new AbortController().signal;
  const models = factory({ sampleId: 's1', epoch: 1, emit: recorder.emit, signal });
  const tree = await runRoleChain({
    topology,
    ...(branching ? { branching } : {}),
    prompt,
    models,
    emit: recorder.emit,
    ...rest,
  });
  return { tree, calls, events: recorder.events };
}

const textOf = (call: ScriptedCall) => allText(call.request.messages);
const countByRole = (calls: ScriptedCall[]) => {
  const counts: Record<string, number> = {};
  for (const call of calls) counts[call.role] = (counts[call.role] ?? 0) + 1;
  return counts;
};
const shape = (node: ChainNode): unknown => ({ id: node.nodeId, role: node.role, children: node.children.map(shape) });

describe('runRoleChain with branching 1 (a plain pipeline)', () => {
  it('makes exactly one call per role and builds one path r > r.0 > r.0.0 > r.0.0.0', async () => {
    const { tree, calls } = await run({ topology: 'G>V>R', reply: (call) => `${call.role} says hi` });
    expect(countByRole(calls)).toEqual({ generator: 1, verifier: 1, refiner: 1 });
    expect(calls.map((call) => call.role)).toEqual(['generator', 'verifier', 'refiner']);
    expect(shape(tree.root)).toEqual({
      id: 'r',
      role: 'root',
      children: [
        {
          id: 'r.0',
          role: 'generator',
          children: [{ id: 'r.0.0', role: 'verifier', children: [{ id: 'r.0.0.0', role: 'refiner', children: [] }] }],
        },
      ],
    });
    const [path] = leafPaths(tree);
    expect(path?.map((node) => node.treeIndex)).toEqual([[0], [0, 0], [0, 0, 0]]);
    expect(path?.map((node) => node.output)).toEqual(['generator says hi', 'verifier says hi', 'refiner says hi']);
    expect(path?.map((node) => node.sampling)).toEqual(
      Array(3).fill({ temperature: 0, maxOutputTokens: 1000, sampleOrdinal: 0 }),
    );
    expect(tree).toMatchObject({ caseName: '', topology: 'G>V>R', branching: [1, 1, 1] });
    expect(Object.keys(tree.prompts)).toHaveLength(3);
    expect(tree.root.promptId).toBeNull();
    for (const [index, node] of (path ?? []).entries()) {
      expect(tree.prompts[node.promptId ?? '']).toEqual(calls[index]?.request.messages);
    }
  });

  it('shows each stage its ancestors only, labelled, and the Next Action to actors only', async () => {
    const { calls } = await run({ topology: 'G>V>R', reply: (call) => `OUT-${call.role}` });
    const [generator, verifier, refiner] = calls.map(textOf);
    expect(generator).toContain('Next Action: GmailSendEmail');
    expect(verifier).toContain("Generator's Response:\nOUT-generator");
    expect(verifier).not.toContain('Next Action:');
    expect(refiner).toContain("Generator's Response:\nOUT-generator");
    expect(refiner).toContain("Verifier's Critique:\nOUT-verifier");
    expect(refiner).toContain('Next Action: GmailSendEmail');
  });

  it('runs repeated stages with ordinals: one call per stage member', async () => {
    const { calls } = await run({ topology: 'G>V>V>R', reply: (call) => `OUT-${call.callIndex}` });
    expect(countByRole(calls)).toEqual({ generator: 1, verifier: 2, refiner: 1 });
    expect(textOf(calls[2]!)).toContain("Verifier 1's Critique:\nOUT-1");
    expect(textOf(calls[2]!)).toMatch(/You are Verifier 2 in a/);
    expect(textOf(calls[3]!)).toContain("Verifier 2's Critique:\nOUT-2");
  });

  it('gives parallel members the same upstream and the next stage all members labelled', async () => {
    const { tree, calls } = await run({ topology: 'G>[V,V]>R', reply: (call) => `OUT-${call.callIndex}` });
    expect(countByRole(calls)).toEqual({ generator: 1, verifier: 2, refiner: 1 });
    const [, first, second, refiner] = calls.map(textOf);
    for (const member of [first, second]) {
      expect(member).toContain("Generator's Response:\nOUT-0");
      expect(member).not.toMatch(/Verifier \d's Critique/);
    }
    expect(first).toMatch(/You are Verifier 1 in a/);
    expect(second).toMatch(/You are Verifier 2 in a/);
    expect(refiner).toContain("Verifier 1's Critique:\nOUT-1");
    expect(refiner).toContain("Verifier 2's Critique:\nOUT-2");
    expect(leafPaths(tree)[0]?.map((node) => node.nodeId)).toEqual(['r.0', 'r.0.0', 'r.0.0.0', 'r.0.0.0.0']);
  });

  it('emits one defense-action event summarising the chain', async () => {
    const { events } = await run({ topology: 'E>C>X', reply: () => 'x' });
    const actions = events.filter((event) => event.type === 'defense-action');
    expect(actions).toHaveLength(1);
    expect(actions[0]).toMatchObject({
      defense: 'chain:E>C>X',
      action: 'rewrite',
      topology: 'E>C>X',
      branching: [1, 1, 1],
      stages: 3,
      modelCalls: 3,
      leaves: 1,
      finalRole: 'executor',
    });
    expect(String(actions[0]?.reason)).toContain('final stage: Executor');
  });
});

describe('runRoleChain as a tree (branching > 1)', () => {
  it('samples siblings separately on one shared prompt and never shows a sibling to another', async () => {
    const reply = (call: ScriptedCall) => {
      const text = textOf(call);
      const seen = ['G0', 'G1'].filter((g) => text.includes(`Response:\n${g}`));
      const critiques = ['V0', 'V1', 'V2', 'V3'].filter((v) => text.includes(`Critique:\n${v}`));
      const tag = { generator: 'G', verifier: 'V', refiner: 'R' }[call.role] ?? '?';
      return `${tag}${call.request.sampleOrdinal}${[...seen, ...critiques].map((s) => `<${s}`).join('')}`;
    };
    const { tree, calls } = await run({ topology: 'G>V>R', branching: [2, 2, 1], reply });
    expect(countByRole(calls)).toEqual({ generator: 2, verifier: 4, refiner: 4 });
    const leaves = leafPaths(tree).map((path) => path.map((node) => node.output));
    expect(leaves).toEqual([
      ['G0', 'V0<G0', 'R0<G0<V0'],
      ['G0', 'V1<G0', 'R1<G0<V1'],
      ['G1', 'V2<G1', 'R2<G1<V2'],
      ['G1', 'V3<G1', 'R3<G1<V3'],
    ]);
    const [g0, g1] = tree.root.children;
    expect(g0?.promptId).toBe(g1?.promptId);
    expect(g0?.sampling).toEqual({ temperature: 1, maxOutputTokens: 1000, sampleOrdinal: 0 });
    expect(g1?.sampling).toEqual({ temperature: 1, maxOutputTokens: 1000, sampleOrdinal: 1 });
    expect(g1?.children[1]?.nodeId).toBe('r.1.1');
    // Draws are numbered across the stage's parents: the 4th refiner parent draws ordinal 3.
    expect(g1?.children[1]?.children[0]?.sampling).toEqual({ temperature: 0, maxOutputTokens: 1000, sampleOrdinal: 3 });
    expect(g1?.children[1]?.children[0]?.treeIndex).toEqual([1, 1, 0]);
    // 1 generator prompt, 2 verifier prompts (one per generator), 4 refiner prompts.
    expect(Object.keys(tree.prompts)).toHaveLength(7);
  });

  it('assembles siblings in index order even when a later sibling finishes first', async () => {
    let releaseFirst: () => void = () => {};
    const firstMayFinish = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    const reply = async (call: ScriptedCall) => {
      if (call.role === 'generator' && call.request.sampleOrdinal === 0) await firstMayFinish;
      if (call.role === 'generator' && call.request.sampleOrdinal === 1) releaseFirst();
      return `${call.role}-${call.request.sampleOrdinal}`;
    };
    const { tree } = await run({ topology: 'G*2>R', reply });
    expect(tree.root.children.map((node) => node.output)).toEqual(['generator-0', 'generator-1']);
  });

  it('honours temperatureFor, the caller settings and a base sample ordinal', async () => {
    const { calls } = await run({
      topology: 'G>R',
      branching: '3,1',
      reply: () => 'x',
      temperatureFor: ({ stageIndex }) => (stageIndex === 1 ? 0.5 : undefined),
      baseSampleOrdinal: 2,
      settings: { maxOutputTokens: 64, temperature: 0.9 },
    });
    // Stage 0: (2·1 + 0)·3 + j; stage 1 under parent p of 3: (2·3 + p)·1.
    expect(calls.map((call) => call.request.sampleOrdinal)).toEqual([6, 7, 8, 6, 7, 8]);
    expect(calls.map((call) => call.request.settings)).toEqual([
      ...Array(3).fill({ temperature: 1, maxOutputTokens: 64 }),
      ...Array(3).fill({ temperature: 0.5, maxOutputTokens: 64 }),
    ]);
  });
});
