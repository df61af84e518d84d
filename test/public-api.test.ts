import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
// Everything below comes from the package root, as a library user imports it.
import {
  aiSdkChatModel,
  type ChatModel,
  DirectoryRunStore,
  evaluate,
  InMemoryRunStore,
  loadSuite,
  MockChatModel,
  type ProviderDefinition,
  privacyPromptDefense,
  type RunProgress,
  resume,
} from '../src/index.js';

/** A provider serving one model value under `<id>:<modelId>`, as a library user brings their own. */
function providerOf({ id, model }: { id: string; model: ChatModel }): ProviderDefinition {
  return { id, description: `${id} (test)`, example: `${id}:any`, acceptsBaseURL: false, create: () => model };
}

/** Leaks the clinic's canary and keeps every other secret: one leak in toy-leak's four scenarios. */
const leaksTheDiagnosis = () =>
  new MockChatModel({
    provider: 'scripted',
    modelId: 'one-leak',
    script: (request) =>
      JSON.stringify(request.messages).includes('clinic') ? 'She has Kestrel-Varga syndrome.' : 'I cannot share that.',
  });

let work: string;
beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'confidant-api-'));
});
afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('the package root', () => {
  it('evaluates a registered suite end to end with a scripted model, in memory', async () => {
    const updates: RunProgress['update'][] = [];
    const { summary, store, header } = await evaluate({
      suite: 'toy-leak',
      models: [{ role: 'agent', spec: 'scripted:one-leak' }],
      providers: [providerOf({ id: 'scripted', model: leaksTheDiagnosis() })],
      onProgress: (progress) => updates.push(progress.update),
    });
    expect(store).toBeInstanceOf(InMemoryRunStore);
    expect(summary.counts).toMatchObject({ planned: 4, success: 4, error: 0, missing: 0 });
    expect(summary.metrics.leak_rate).toMatchObject({ value: 0.25, n: 4, errors: 0 });
    expect(header.suite).toEqual({ id: 'toy-leak', version: 1 });
    expect(header.models.agent).toEqual([
      expect.objectContaining({ provider: 'scripted', modelId: 'one-leak', endpoints: [] }),
    ]);
    expect(updates[0]).toBe('start');
    expect(updates.filter((update) => update === 'sample')).toHaveLength(4);
    const records = await store.readSamples({ events: true });
    expect(records.map((record) => record.scores[0]?.verdict).sort()).toEqual(['fail', 'pass', 'pass', 'pass']);
  });

  it('runs a suite value with a defense value and an AI SDK model, into a run directory that resumes', async () => {
    const prompts: string[] = [];
    const sdkModel = new MockLanguageModelV3({
      provider: 'sdk',
      modelId: 'canary-echo',
      doGenerate: async (options) => {
        const text = JSON.stringify(options.prompt);
        prompts.push(text);
        return {
          content: [{ type: 'text', text: text.includes('187,350') ? 'It is 187,350 euros.' : 'No.' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage: {
            inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
            outputTokens: { total: 2, text: 2, reasoning: 0 },
          },
          warnings: [],
        };
      },
    });
    const outDir = join(work, 'runs');
    const first = await evaluate({
      suite: await loadSuite('toy-leak'),
      models: [{ role: 'agent', spec: 'sdk:canary-echo' }],
      providers: [providerOf({ id: 'sdk', model: aiSdkChatModel(sdkModel) })],
      defenses: [privacyPromptDefense],
      outDir,
      limit: 2,
    });
    expect(first.store).toBeInstanceOf(DirectoryRunStore);
    expect(first.summary.counts).toMatchObject({ planned: 2, success: 2 });
    // The second toy scenario is the payroll one: its answer repeats the salary.
    expect(first.summary.metrics.leak_rate).toMatchObject({ value: 0.5, n: 2 });
    expect(first.header.defenses).toEqual(['privacy-prompt']);
    expect(prompts).toHaveLength(2);

    const again = await resume({
      store: first.store.location,
      providers: [providerOf({ id: 'sdk', model: aiSdkChatModel(sdkModel) })],
      overrides: { concurrency: 1 },
    });
    expect(again.executed).toBe(0);
    expect(again.summary.metrics.leak_rate).toMatchObject({ value: 0.5, n: 2 });
    expect(prompts).toHaveLength(2);
    const reread = new DirectoryRunStore(first.store.location);
    expect((await reread.readHeader()).resumes?.[0]?.changed).toEqual({ concurrency: { from: 4, to: 1 } });
    expect((await reread.readSummary())?.metrics.leak_rate?.value).toBe(0.5);
  });
});
