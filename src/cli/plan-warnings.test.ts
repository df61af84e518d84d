import { describe, expect, it } from 'vitest';
import { prepareRun } from '../runner/index.js';
import { type RunPlanInput, runPlanSchema } from '../spec/run-plan.js';
import { planWarnings } from './plan-warnings.js';

async function warningsFor(input: RunPlanInput): Promise<string[]> {
  const plan = runPlanSchema.parse(input);
  return planWarnings({ plan, prepared: await prepareRun({ plan, dataDir: '/no/data/dir' }) });
}

describe('planWarnings', () => {
  it('says nothing about a plain plan', async () => {
    expect(await warningsFor({ suite: 'toy-leak', models: [{ role: 'agent', spec: 'mock:echo' }] })).toEqual([]);
  });

  it('names a role the suite never uses, but not the roles defenses may call', async () => {
    const warnings = await warningsFor({
      suite: 'toy-leak',
      models: [
        { role: 'agent', spec: 'mock:echo' },
        { role: 'prober', spec: 'mock:echo' },
        { role: 'verifier', spec: 'mock:echo' },
      ],
      defenses: ['chain:G>V>R'],
    });
    expect(warnings).toEqual(["--model prober=… is given, but toy-leak with these options never uses role 'prober'"]);
  });

  it('counts a defense given under its alias and its name as the same defense', async () => {
    const warnings = await warningsFor({
      suite: 'toy-leak',
      models: [{ role: 'agent', spec: 'mock:echo' }],
      defenses: ['ppe', 'privacy-prompt', 'ppe'],
    });
    expect(warnings).toEqual(['--defense privacy-prompt is given 3 times; it rewrites the prompt 3 times, in order']);
  });

  it('does not warn about a judge a suite calls', async () => {
    const warnings = await warningsFor({
      suite: 'privacybench',
      limit: 1,
      models: [
        { role: 'agent', spec: 'mock:echo' },
        { role: 'prober', spec: 'mock:echo' },
        { role: 'judge', spec: 'mock:echo' },
      ],
    });
    expect(warnings).toEqual([]);
  });
});

describe('planWarnings under --fidelity upstream', () => {
  const plan = (input: Partial<RunPlanInput>) =>
    warningsFor({
      suite: 'pac',
      suiteOptions: { split: 'starter', taskMode: 'markers', privacyMode: 'keyword-only', ...input.suiteOptions },
      models: [{ role: 'agent', spec: 'reference:oracle' }],
      limit: 1,
      ...(input.fidelity === undefined ? {} : { fidelity: input.fidelity }),
    });
  it('names an explicit --set that contradicts the upstream options, and nothing when none does', async () => {
    expect(await plan({ fidelity: 'upstream' })).toEqual([]);
    expect(await plan({ fidelity: 'upstream', suiteOptions: { keywordMatch: 'word' } })).toEqual([
      '--fidelity upstream, but keywordMatch=word (upstream: upstream) is given explicitly and wins, so this pac run is not scored exactly as upstream',
    ]);
    expect(await plan({ suiteOptions: { keywordMatch: 'word' } })).toEqual([]);
  });
});
