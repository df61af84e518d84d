import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ModelSpecError, PlanValidationError } from '../spec/errors.js';
import { type RunPlanInput, runPlanSchema } from '../spec/run-plan.js';
import { loadSuites } from '../suites/registry.js';
import type { Suite } from '../suites/suite.js';
import { planHash } from './plan-hash.js';
import { fidelityOverrides, parseSuiteOptions, planSuiteOptions, prepareRun } from './prepare-run.js';

const suites = await loadSuites();
const findSuite = (id: string) => suites.find((suite) => suite.id === id)!;

const chat = [
  { role: 'agent', spec: 'mock:echo' },
  { role: 'prober', spec: 'mock:echo' },
  { role: 'judge', spec: 'mock:fixed/no' },
];
const prepare = (plan: Omit<RunPlanInput, 'suite'>) =>
  prepareRun({ plan: runPlanSchema.parse({ suite: 'privacybench', limit: 1, ...plan }), dataDir: '/no/data/dir' });

describe('prepareRun with an embedder', () => {
  it('keeps --model embedder=<spec> among the bindings to resolve, like any role', async () => {
    const prepared = await prepare({
      suiteOptions: { retriever: 'vector' },
      models: [...chat, { role: 'embedder', spec: 'hashing:384' }],
    });
    expect(prepared.modelBindings).toEqual([...chat, { role: 'embedder', spec: 'hashing:384' }]);
    const bm25 = await prepare({ models: chat });
    expect(bm25.modelBindings).toEqual(chat);
  });

  it('refuses the embedder bound twice before anything runs', async () => {
    const twice = prepare({
      suiteOptions: { retriever: 'vector' },
      models: [...chat, { role: 'embedder', spec: 'hashing:384' }, { role: 'embedder', spec: 'hashing:64' }],
    });
    await expect(twice).rejects.toThrow(ModelSpecError);
    await expect(twice).rejects.toThrow('role "embedder" is bound 2 times (hashing:384, hashing:64)');
  });

  it('rejects vector retrieval with no embedder, naming both ways to give one', async () => {
    const rejected = prepare({ suiteOptions: { retrieval: 'vector' }, models: chat });
    await expect(rejected).rejects.toThrow(PlanValidationError);
    await expect(rejected).rejects.toThrow(
      /^suite privacybench needs an embedder for vector retrieval: add --model embedder=<spec> \(.*hashing:384 offline\), or --set embedder=hashing:384$/,
    );
  });

  it('binds the embedder role to --set embedder=<spec>', async () => {
    const offline = await prepare({ suiteOptions: { retriever: 'vector', embedder: 'hashing:384' }, models: chat });
    expect(offline.modelBindings).toEqual([...chat, { role: 'embedder', spec: 'hashing:384' }]);
    // BM25 never embeds: the option binds nothing, so no embedder is resolved.
    const bm25 = await prepare({ suiteOptions: { embedder: 'hashing:384' }, models: chat });
    expect(bm25.modelBindings).toEqual(chat);
    // The plan itself is unchanged (its hash identifies the run).
    expect(offline.plan.models).toEqual(chat);
  });

  it('refuses --set embedder=<spec> together with --model embedder=<spec>, naming both', async () => {
    const both = prepare({
      suiteOptions: { retrieval: 'vector', embedder: 'hashing:64' },
      models: [...chat, { role: 'embedder', spec: 'hashing:384' }],
    });
    await expect(both).rejects.toThrow(ModelSpecError);
    await expect(both).rejects.toThrow(
      'role "embedder" is given twice, by --set embedder=hashing:64 and --model embedder=hashing:384: give one of them',
    );
  });
});

describe('prepareRun role checks', () => {
  it('names every missing role in one message, each with how to bind it', async () => {
    const rejected = prepare({ models: [{ role: 'agent', spec: 'mock:echo' }] });
    await expect(rejected).rejects.toThrow(PlanValidationError);
    await expect(rejected).rejects.toThrow(
      'suite privacybench needs 2 more roles:\n  prober: add --model prober=<provider:model>\n  judge: add --model judge=<provider:model>\n(see `confidant list providers` for model specs)',
    );
  });

  it('names every unknown role at once', async () => {
    const rejected = prepare({
      models: [...chat, { role: 'judje', spec: 'mock:echo' }, { role: 'probe', spec: 'mock:echo' }],
    });
    await expect(rejected).rejects.toThrow(
      /^unknown roles "judje" in --model judje=…, "probe" in --model probe=…; known roles: /,
    );
  });

  it('refuses two responder defenses before any sample runs', async () => {
    const rejected = prepareRun({
      plan: runPlanSchema.parse({
        suite: 'toy-leak',
        models: [{ role: 'agent', spec: 'mock:echo' }],
        defenses: ['aifc', 'chain:G>V>R'],
      }),
      dataDir: '/no/data/dir',
    });
    await expect(rejected).rejects.toThrow(
      'at most one responder defense can answer a prompt, got one-two-three-check, chain:G>V>R: keep one of them',
    );
  });
});

describe('prepareRun with an empty plan', () => {
  it('refuses a shard with no sample before anything runs, saying how many the plan has', async () => {
    const plan = runPlanSchema.parse({
      suite: 'toy-leak',
      models: [{ role: 'agent', spec: 'mock:echo' }],
      shard: { index: 5, count: 5 },
    });
    const rejected = prepareRun({ plan, dataDir: '/no/data/dir' });
    await expect(rejected).rejects.toBeInstanceOf(PlanValidationError);
    await expect(rejected).rejects.toThrow(
      'nothing to run: shard 5/5 has no sample, the plan has only 4; use at most 4 shard(s)',
    );
  });
});

describe('prepareRun with a suite that seats its models (Suite.seats)', () => {
  const plan = runPlanSchema.parse({
    suite: 'pac',
    // The offline preset: starter data, deterministic judges only.
    suiteOptions: findSuite('pac').presets?.find((preset) => preset.id === 'offline')?.options,
    models: [
      { role: 'agent', spec: 'mock:echo' },
      { role: 'agent', spec: 'reference:oracle' },
    ],
  });

  it('passes the seat bindings in the seats option and resolves no reference seat', async () => {
    const prepared = await prepareRun({ plan, dataDir: '/no/data/dir' });
    expect(prepared.suite.seats).toBe(true);
    expect((prepared.options as { seats: unknown }).seats).toEqual([
      { role: 'agent', spec: 'mock:echo' },
      { role: 'agent', spec: 'reference:oracle' },
    ]);
    expect(prepared.modelBindings).toEqual([{ role: 'agent', spec: 'mock:echo' }]);
  });

  it('seats nothing for the same suite without the declaration, whatever its options schema says', async () => {
    const suite = { ...findSuite('pac'), seats: false };
    const prepared = await prepareRun({ plan, suite, dataDir: '/no/data/dir' });
    expect((prepared.options as { seats?: unknown }).seats ?? []).toEqual([]);
    expect(prepared.modelBindings).toEqual(plan.models);
  });
});

describe('--fidelity', () => {
  const toy = findSuite('toy-leak');
  const suite = {
    ...toy,
    options: z.object({ parse: z.enum(['strict', 'upstream']).default('strict'), k: z.number().default(1) }).strict(),
    upstreamOptions: { parse: 'upstream' },
  };
  const prepareToy = (plan: Omit<RunPlanInput, 'suite'>) =>
    prepareRun({
      plan: runPlanSchema.parse({ suite: 'toy-leak', models: [{ role: 'agent', spec: 'mock:echo' }], ...plan }),
      dataDir: '/no/data/dir',
      suite,
    });

  it('upstream lays the suite upstream options beneath the plan options; confidant (or none) leaves them out', async () => {
    expect((await prepareToy({ fidelity: 'upstream' })).options).toEqual({ parse: 'upstream', k: 1 });
    expect((await prepareToy({ fidelity: 'confidant' })).options).toEqual({ parse: 'strict', k: 1 });
    expect((await prepareToy({})).options).toEqual({ parse: 'strict', k: 1 });
  });

  it('an explicit option wins over the upstream one, and is named as an override', async () => {
    const plan = { suiteOptions: { parse: 'strict', k: 2 }, fidelity: 'upstream' as const };
    expect((await prepareToy(plan)).options).toEqual({ parse: 'strict', k: 2 });
    expect(fidelityOverrides({ suite, plan })).toEqual(['parse=strict (upstream: upstream)']);
    expect(fidelityOverrides({ suite, plan: { ...plan, suiteOptions: { parse: 'upstream' } } })).toEqual([]);
    expect(fidelityOverrides({ suite, plan: { ...plan, fidelity: 'confidant' } })).toEqual([]);
    expect(planSuiteOptions({ suite, plan: { suiteOptions: {}, fidelity: 'upstream' } })).toEqual({
      parse: 'upstream',
    });
  });

  it('changes the plan hash only when upstream, so plans without the flag keep theirs', () => {
    const base = runPlanSchema.parse({ suite: 'toy-leak' });
    expect(planHash({ ...base, fidelity: 'confidant' })).toBe(planHash(base));
    expect(planHash({ ...base, fidelity: 'upstream' })).not.toBe(planHash(base));
  });
});

describe('parseSuiteOptions wording', () => {
  const suite = {
    id: 'demo',
    options: z.object({ tier: z.enum(['1', '3']), rounds: z.number() }),
    flags: [{ key: 'tier', flag: '--tier' }],
  } as unknown as Suite;

  it('says an option that was never given is required, with its allowed values', () => {
    expect(() => parseSuiteOptions({ suite, raw: {} })).toThrow(
      new PlanValidationError(
        'invalid options for suite demo: tier: required, one of "1", "3" (set it with --tier or --set tier=…); rounds: required, expected number (set it with --set rounds=…)',
      ),
    );
  });

  it("keeps zod's wording for a value that was given but is wrong", () => {
    expect(() => parseSuiteOptions({ suite, raw: { tier: '2', rounds: 1 } })).toThrow(
      /^invalid options for suite demo: tier: Invalid option: expected one of "1"\|"3" \(set it with --tier or --set tier=…\)$/,
    );
  });
});
