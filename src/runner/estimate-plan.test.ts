import { describe, expect, it } from 'vitest';
import { resolveDefense } from '../defenses/registry.js';
import { createPriceTable } from '../models/price-table.js';
import type { RoleBinding } from '../spec/model-spec.js';
import { exactly } from '../suites/call-pattern.js';
import type { Suite } from '../suites/suite.js';
import { toyLeakScenarios, toyLeakSuite } from '../suites/toy-leak/index.js';
import { estimatePlan } from './estimate-plan.js';
import { expandSamples } from './expand-samples.js';

const MODEL = 'openai-compatible:m@http://127.0.0.1:9/v1';
const prices = createPriceTable({
  overrides: { 'openai-compatible:m': { inputPerMillionUsd: 0.5, outputPerMillionUsd: 1.5 } },
});

/** The toy prompt's tokens, rebuilt here from the scenario text (4 characters a token). */
const promptTokens = toyLeakScenarios.map((scenario) => {
  const user = `## Private note (do not share)\n${scenario.privateNote}\n\n${scenario.requester} writes: "${scenario.question}"\nReply to them.`;
  return Math.ceil(`${scenario.assistant}\n${user}`.length / 4);
});
const promptSum = promptTokens.reduce((sum, tokens) => sum + tokens, 0);

function estimate({
  suite = toyLeakSuite,
  defenses = [],
  bindings = [{ role: 'agent', spec: MODEL }],
  epochs = 1,
  settings = {},
}: {
  suite?: Suite;
  defenses?: string[];
  bindings?: RoleBinding[];
  epochs?: number;
  settings?: Record<string, Record<string, unknown>>;
}) {
  const samples = expandSamples({ suite, scenarios: toyLeakScenarios, options: {}, epochs, seed: 0 });
  return estimatePlan({
    suite,
    options: {},
    scenarios: toyLeakScenarios,
    samples,
    defenses: defenses.map((id) => resolveDefense({ id, taskKind: 'free-text-answer' })),
    bindings,
    settings,
    prices,
  });
}

describe('estimatePlan', () => {
  it('counts one agent call per toy-leak sample and prices it from the prompts', () => {
    expect(promptTokens).toEqual([67, 61, 64, 64]);
    const result = estimate({ epochs: 2 });
    expect(result.declared).toBe(true);
    expect(result.rows).toEqual([
      {
        role: 'agent',
        model: 'openai-compatible:m',
        calls: exactly(8),
        inputTokens: { min: 61, max: 67 },
        inputAssumed: false,
        outputTokens: { min: 1, max: 1000 },
        outputAssumed: true,
        price: { inputPerMillionUsd: 0.5, outputPerMillionUsd: 1.5 },
        cost: expect.any(Object),
      },
    ]);
    const low = (2 * (promptSum * 0.5 + 4 * 1.5)) / 1e6;
    const high = (2 * (promptSum * 0.5 + 4 * 1000 * 1.5)) / 1e6;
    expect(result.calls).toEqual(exactly(8));
    expect(result.cost?.low).toBeCloseTo(low, 12);
    expect(result.cost?.high).toBeCloseTo(high, 12);
    expect(result.cost?.expected?.low).toBeCloseTo(low, 12);
    expect(result.cost?.expected?.high).toBeCloseTo(high, 12);
  });

  it("takes a role's maxOutputTokens from its settings", () => {
    const row = estimate({ settings: { agent: { maxOutputTokens: 50 } } }).rows[0];
    expect(row?.outputTokens).toEqual({ min: 1, max: 50 });
    expect(row?.outputAssumed).toBe(false);
    expect(row?.cost?.high).toBeCloseTo((promptSum * 0.5 + 4 * 50 * 1.5) / 1e6, 12);
  });

  it('expands each answer through a responder defense: one call per chain role, prompts carrying earlier outputs', () => {
    const result = estimate({
      defenses: ['chain:G>V>R'],
      bindings: [
        { role: 'agent', spec: MODEL },
        { role: 'verifier', spec: 'mock:echo' },
      ],
    });
    expect(
      result.rows.map(({ role, model, calls, inputTokens }) => ({ role, model, calls: calls.expected, inputTokens })),
    ).toEqual([
      { role: 'generator', model: 'openai-compatible:m', calls: 4, inputTokens: { min: 61, max: 67 } },
      { role: 'verifier', model: 'mock:echo', calls: 4, inputTokens: { min: 62, max: 67 + 1000 } },
      { role: 'refiner', model: 'openai-compatible:m', calls: 4, inputTokens: { min: 63, max: 67 + 2000 } },
    ]);
    expect(result.rows[1]?.cost).toEqual({ low: 0, expected: { low: 0, high: 0 }, high: 0 });
    expect(result.calls).toEqual(exactly(12));
  });

  it('plans a judgment on every model of an ensemble, and has no cost without every price', () => {
    const judged: Suite = {
      ...toyLeakSuite,
      callPattern: () => [{ role: 'judge', count: { min: 0, expected: 1, max: 3 } }],
    };
    const result = estimate({
      suite: judged,
      bindings: [
        { role: 'judge', spec: MODEL },
        { role: 'judge', spec: 'openai-compatible:other@http://127.0.0.1:9/v1' },
      ],
    });
    expect(result.rows.map((row) => [row.model, row.calls, row.inputAssumed, row.cost === null])).toEqual([
      ['openai-compatible:m', { min: 0, expected: 4, max: 12 }, true, false],
      ['openai-compatible:other', { min: 0, expected: 4, max: 12 }, true, true],
    ]);
    expect(result.cost).toBeNull();
    // Assumed 100–4000 input tokens per call, replies of 1–1000.
    expect(result.rows[0]?.cost).toEqual({
      low: 0,
      expected: { low: (4 * (100 * 0.5 + 1.5)) / 1e6, high: (4 * (4000 * 0.5 + 1000 * 1.5)) / 1e6 },
      high: (12 * (4000 * 0.5 + 1000 * 1.5)) / 1e6,
    });
  });

  it('says when a suite declares no call pattern', () => {
    const { callPattern: _omitted, ...rest } = toyLeakSuite;
    const result = estimate({ suite: rest as Suite });
    expect(result).toEqual({ declared: false, rows: [], calls: exactly(0), cost: null });
  });
});
