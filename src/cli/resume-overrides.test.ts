import { describe, expect, it } from 'vitest';
import { applyResumeOverrides, describeResumeChanges } from '../runner/index.js';
import { PlanValidationError } from '../spec/errors.js';
import { type RunPlan, runPlanSchema } from '../spec/run-plan.js';
import {
  REFUSED_RESUME_FLAGS,
  type ResumeOverrideFlags,
  refuseResumeFlags,
  resumeOverridesOf,
} from './resume-overrides.js';

const plan = runPlanSchema.parse({
  suite: 'privacylens',
  models: [
    { role: 'agent', spec: 'vllm:Qwen/Qwen3-4B@http://old:8000/v1' },
    { role: 'judge', spec: 'vllm:judge-m@http://old:8001/v1' },
    { role: 'judge', spec: 'openai:gpt-4o' },
  ],
  concurrency: 4,
  maxCostUsd: 5,
});

/** The plan a resume with these flags runs (the flags mapped as `confidant resume` maps them). */
const applyFlags = ({ plan, flags }: { plan: RunPlan; flags: ResumeOverrideFlags }) =>
  applyResumeOverrides({ plan, overrides: resumeOverridesOf(flags) });

describe('applyResumeOverrides', () => {
  it('changes how the run executes and says what changed', () => {
    const { plan: next, changed } = applyFlags({
      plan,
      flags: {
        concurrency: 16,
        maxConnections: 4,
        maxRetries: 0,
        maxCost: 20,
        cache: false,
        model: ['judge=vllm:judge-m@http://new:8001/v1'],
      },
    });
    expect(next).toMatchObject({ concurrency: 16, maxConnections: 4, maxRetries: 0, maxCostUsd: 20, cache: false });
    expect(next.models).toEqual([
      { role: 'agent', spec: 'vllm:Qwen/Qwen3-4B@http://old:8000/v1' },
      { role: 'judge', spec: 'vllm:judge-m@http://new:8001/v1' },
      { role: 'judge', spec: 'openai:gpt-4o' },
    ]);
    expect(changed).toEqual({
      concurrency: { from: 4, to: 16 },
      maxConnections: { from: 8, to: 4 },
      maxRetries: { from: 5, to: 0 },
      maxCostUsd: { from: 5, to: 20 },
      cache: { from: true, to: false },
      'models.judge': { from: ['http://old:8001/v1'], to: ['http://new:8001/v1'] },
    });
    expect(describeResumeChanges({ concurrency: changed.concurrency!, 'models.judge': changed['models.judge']! })).toBe(
      'concurrency 16 (was 4); models.judge http://new:8001/v1 (was http://old:8001/v1)',
    );
  });

  it('takes fail-fast thresholds, which change when a run stops, not what it measures', () => {
    const { plan: next, changed } = applyFlags({ plan, flags: { failFast: 0, maxErrorRate: 1 } });
    expect(next).toMatchObject({ failFast: 0, maxErrorRate: 1 });
    expect(changed).toEqual({ failFast: { from: 5, to: 0 }, maxErrorRate: { from: 0.2, to: 1 } });
    expect(() => applyFlags({ plan, flags: { maxErrorRate: 2 } })).toThrow(/invalid resume settings: maxErrorRate/);
  });

  it('records nothing when the values are the ones the run already has', () => {
    const { plan: next, changed } = applyFlags({
      plan,
      flags: { concurrency: 4, model: ['vllm:Qwen/Qwen3-4B@http://old:8000/v1'] },
    });
    expect(changed).toEqual({});
    expect(next).toEqual(plan);
  });

  it('refuses another model id, a role the run does not bind, and a budget the plan cannot hold', () => {
    const other = () => applyFlags({ plan, flags: { model: ['vllm:Qwen/Qwen3-8B@http://new:8000/v1'] } });
    expect(other).toThrow(PlanValidationError);
    expect(other).toThrow(
      "resume can move role 'agent' to a new base URL but not change its model: the run uses vllm:Qwen/Qwen3-4B, not vllm:Qwen/Qwen3-8B. A different model measures something else: start a new run",
    );
    expect(() => applyFlags({ plan, flags: { model: ['prober=vllm:p@http://x:1/v1'] } })).toThrow(
      "resume cannot add role 'prober' (--model prober=vllm:p@http://x:1/v1): this run binds agent, judge; start a new run to change its models",
    );
    expect(() => applyFlags({ plan, flags: { maxCost: 0 } })).toThrow(
      'invalid resume settings: maxCostUsd: Too small: expected number to be >0',
    );
  });

  it('merges prices by model and records the change', () => {
    const priced = runPlanSchema.parse({
      ...plan,
      prices: { 'vllm:judge-m': { inputPerMillionUsd: 1, outputPerMillionUsd: 1 } },
    });
    const gpt = { inputPerMillionUsd: 2.5, outputPerMillionUsd: 10 };
    const { plan: next, changed } = applyFlags({ plan: priced, flags: { prices: { 'openai:gpt-4o': gpt } } });
    expect(next.prices).toEqual({
      'vllm:judge-m': { inputPerMillionUsd: 1, outputPerMillionUsd: 1 },
      'openai:gpt-4o': gpt,
    });
    expect(changed).toEqual({ prices: { from: priced.prices, to: next.prices } });
    expect(applyFlags({ plan: priced, flags: { prices: {} } }).changed).toEqual({});
  });

  it('refuses a model bound twice at once as ambiguous', () => {
    const twice = runPlanSchema.parse({
      suite: 'privacylens',
      models: [
        { role: 'judge', spec: 'vllm:j@http://a:1/v1' },
        { role: 'judge', spec: 'vllm:j@http://b:1/v1' },
      ],
    });
    expect(() => applyFlags({ plan: twice, flags: { model: ['judge=vllm:j@http://c:1/v1'] } })).toThrow(
      "role 'judge' binds vllm:j 2 times, so --model judge=vllm:j@http://c:1/v1 is ambiguous on resume",
    );
  });
});

describe('refuseResumeFlags', () => {
  it('refuses exactly the plan-defining flags of run, from the flag schema', () => {
    expect(REFUSED_RESUME_FLAGS.map((entry) => entry.flag)).toEqual([
      '--grid',
      '--model-setting',
      '--defense',
      '--set',
      '--fidelity',
      '--epochs',
      '--limit',
      '--sample-ids',
      '--seed',
      '--shard',
      '--out',
      '--preset',
      '--config',
    ]);
  });

  it('names every plan flag given, with its reason, and points to a new run', () => {
    const refuse = () =>
      refuseResumeFlags({ flags: { epochs: '2', out: 'elsewhere' }, refused: REFUSED_RESUME_FLAGS, suite: 'confaide' });
    expect(refuse).toThrow(PlanValidationError);
    expect(refuse).toThrow(
      'resume continues a run exactly as its header.json plans it, so it cannot take --epochs (it defines what the run measures); --out (a run directory does not move: resume writes into the directory it is given). To change that, start a new run (confidant run confaide …); resume accepts only --data-dir,',
    );
    expect(() =>
      refuseResumeFlags({ flags: { concurrency: '2' }, refused: REFUSED_RESUME_FLAGS, suite: 'x' }),
    ).not.toThrow();
  });
});
