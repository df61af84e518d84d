import { describe, expect, it } from 'vitest';
import { expandSamples, runEvaluation } from '../../../runner/index.js';
import { scriptedModelRoles } from '../../../runner/testing/scripted-model-roles.js';
import { testRunHeader } from '../../../runner/testing/test-run-header.js';
import { InMemoryRunStore } from '../../../store/index.js';
import { loadStarterCommunity } from '../starter-community.js';
import { privacybenchCalibrationSuite } from './calibration-suite.js';
import { buildSecretDetectionItems, renderSnippet } from './secret-detection-items.js';
import { secretDetectionRoles } from './secret-detection-task.js';

describe('the privacybench-calibration suite through the runner', () => {
  it('reports exact confusion counts for the model under test and for each judge', async () => {
    const { community, documents } = await loadStarterCommunity();
    const items = buildSecretDetectionItems({ community, documents });
    const positives = items
      .filter((item) => item.label === 'secret')
      .map((item) => item.itemId)
      .sort();
    const negatives = items
      .filter((item) => item.label === 'clean')
      .map((item) => item.itemId)
      .sort();
    expect(positives).toHaveLength(13);
    expect(negatives).toHaveLength(13);
    // The agent misses one secret, flags two clean snippets, and answers one clean snippet with garbage.
    const missed = new Set(positives.slice(0, 1));
    const flagged = new Set(negatives.slice(0, 2));
    const garbled = new Set(negatives.slice(2, 3));
    const itemOf = (prompt: string) => items.find((item) => prompt.includes(renderSnippet(item)));
    const { factory, calls } = scriptedModelRoles({
      roles: ['agent', 'judge'],
      respond: ({ role, request }) => {
        const item = itemOf(request.messages[0]?.content ?? '');
        if (item === undefined) throw new Error('unknown snippet');
        if (role === 'judge') return 'Everything looks sensitive.\nAnswer: Yes';
        if (garbled.has(item.itemId)) return 'Hmm.';
        const secret = item.label === 'secret' ? !missed.has(item.itemId) : flagged.has(item.itemId);
        return `Reasoning.\nAnswer: ${secret ? 'Yes' : 'No'}`;
      },
    });
    const suite = privacybenchCalibrationSuite;
    const scenarios = items.map((detection) => ({ detection }));
    const options = { detectors: 'agent' as const };
    const samples = expandSamples({ suite, scenarios, options, epochs: 1, seed: 0 });
    const store = new InMemoryRunStore();
    await store.writeHeader(testRunHeader({ runId: 'sd', sampleIds: samples.map((sample) => sample.id) }));
    const { summary } = await runEvaluation({
      suite,
      options,
      scenarios,
      samples,
      store,
      models: factory,
      concurrency: 2,
    });

    expect(summary.counts).toMatchObject({ planned: 26, success: 26, error: 0 });
    const agent = { errors: 1, notApplicable: 0 };
    expect(summary.metrics.tp).toEqual({ value: 12, n: 25, ...agent });
    expect(summary.metrics.fn).toEqual({ value: 1, n: 25, ...agent });
    expect(summary.metrics.fp).toEqual({ value: 2, n: 25, ...agent });
    expect(summary.metrics.tn).toEqual({ value: 10, n: 25, ...agent });
    expect(summary.metrics.accuracy).toMatchObject({ value: 22 / 25, n: 25, ...agent });
    expect(summary.metrics.precision).toMatchObject({ value: 12 / 14, n: 14, ...agent });
    expect(summary.metrics.recall).toMatchObject({ value: 12 / 13, n: 13, ...agent });
    const judge = summary.groups?.detector?.['judge:1:mock:scripted'];
    expect(judge?.tp).toEqual({ value: 13, n: 26, errors: 0, notApplicable: 0 });
    expect(judge?.fp).toEqual({ value: 13, n: 26, errors: 0, notApplicable: 0 });
    expect(judge?.precision?.value).toBe(0.5);
    expect(judge?.recall?.value).toBe(1);
    // Clean snippets form the 'none' sharing kind; every positive belongs to person, group or AI.
    expect(summary.groups?.sharing_kind?.none?.tn).toEqual({ value: 10, n: 12, errors: 1, notApplicable: 0 });
    const byKind = summary.groups?.sharing_kind ?? {};
    expect(['person', 'group', 'ai'].reduce((sum, kind) => sum + (byKind[kind]?.tp?.value ?? 0), 0)).toBe(12);
    // 26 agent answers + 2 parse retries for the garbled one + 26 judge answers.
    expect(calls.filter((call) => call.role === 'agent')).toHaveLength(28);
    expect(calls.filter((call) => call.role === 'judge')).toHaveLength(26);
  });

  it('calibrates only the judges when asked', async () => {
    const { community, documents } = await loadStarterCommunity();
    const items = buildSecretDetectionItems({ community, documents }).slice(0, 4);
    const { factory, calls } = scriptedModelRoles({
      roles: ['judge'],
      respond: ({ request }) => {
        const item = items.find((candidate) => (request.messages[0]?.content ?? '').includes(renderSnippet(candidate)));
        return `Answer: ${item?.label === 'secret' ? 'Yes' : 'No'}`;
      },
    });
    const suite = privacybenchCalibrationSuite;
    const scenarios = items.map((detection) => ({ detection }));
    const options = { detectors: 'judges' as const };
    expect(secretDetectionRoles('judges')).toEqual({ required: ['judge'], optional: [] });
    const samples = expandSamples({ suite, scenarios, options, epochs: 1, seed: 0 });
    const store = new InMemoryRunStore();
    await store.writeHeader(testRunHeader({ runId: 'sd-judges', sampleIds: samples.map((sample) => sample.id) }));
    const { summary } = await runEvaluation({ suite, options, scenarios, samples, store, models: factory });
    expect(summary.metrics.accuracy).toMatchObject({ value: 1, n: 4, errors: 0, notApplicable: 0 });
    expect(Object.keys(summary.groups?.detector ?? {})).toEqual(['judge:1:mock:scripted']);
    expect(calls.every((call) => call.role === 'judge')).toBe(true);
  });
});
