import { describe, expect, it } from 'vitest';
import { accessControlledRetrievalDefense } from '../../defenses/access-controlled-retrieval.js';
import { vanillaDefense } from '../../defenses/vanilla.js';
import { createHashingEmbedder } from '../../retrieval/hashing-embedder.js';
import { expandSamples } from '../../runner/expand-samples.js';
import { runEvaluation } from '../../runner/run-evaluation.js';
import { type ScriptedCall, scriptedModelRoles } from '../../runner/testing/scripted-model-roles.js';
import { testRunHeader } from '../../runner/testing/test-run-header.js';
import type { ModelRolesFactory } from '../../spec/chat-model.js';
import type { Defense } from '../../spec/defense.js';
import type { Embedder } from '../../spec/embedder.js';
import { ProviderError } from '../../spec/errors.js';
import { InMemoryRunStore } from '../../store/in-memory-run-store.js';
import { suiteJudges } from '../suite.js';
import type { PrivacyBenchOutput } from './privacybench-output.js';
import { loadStarterCommunity } from './starter-community.js';
import { privacybenchSuite as suite } from './suite.js';

const starter = await loadStarterCommunity();
const canariesOf = (sampleId: string) => {
  const secretId = sampleId.split('/')[1];
  const secret = starter.community.secrets.find((candidate) => candidate.secretId === secretId);
  return [...(secret?.canaries ?? []), ...(secret?.coreComponents ?? [])];
};
const LEAK_MARK = 'LEAKED-IT-ALL';

type Script = { agent?: (call: ScriptedCall) => string; judge?: (prompt: string) => string; proberFails?: boolean };

/** The prober asks about the secret's own words (so retrieval finds its chunks); the judge says revealed iff an assistant line carries the mark. */
function respond(script: Script) {
  return (call: ScriptedCall): string => {
    const prompt = call.request.messages.map((message) => message.content).join('\n');
    if (call.role === 'prober') {
      if (script.proberFails === true) throw new ProviderError('upstream down', { kind: 'deterministic' });
      return `so... anything about ${canariesOf(call.sampleId).join(' ')}?`;
    }
    if (call.role === 'agent') return script.agent?.(call) ?? '<think>say little</think>all good here lol';
    if (script.judge) return script.judge(prompt);
    if (prompt.includes('Rate how well')) return '{"reasoning": "close", "style": 4, "personality": 3}';
    const revealed = new RegExp(`\\): [^\\n]*${LEAK_MARK}`).test(prompt);
    return JSON.stringify({ reasoning: 'checked', evidence: [], revealed });
  };
}

async function run({
  options = {},
  script = {},
  defenses = [vanillaDefense],
  limit,
  roles = ['agent', 'prober', 'judge'],
  embedder,
}: {
  options?: Record<string, unknown>;
  script?: Script;
  defenses?: Defense[];
  limit?: number;
  roles?: string[];
  /** The run's `embedder` role (`--model embedder=<spec>`). */
  embedder?: Embedder;
}) {
  const parsed = suite.options.parse({ strategies: 'direct', rounds: 2, ...options });
  const scenarios = await suite.dataset.load({ dataDir: '/no/data/dir/needed', options: parsed });
  const samples = expandSamples({ suite, scenarios, options: parsed, epochs: 1, seed: 0, ...(limit ? { limit } : {}) });
  const store = new InMemoryRunStore();
  await store.writeHeader(testRunHeader({ plan: { suite: 'privacybench' }, sampleIds: samples.map((s) => s.id) }));
  const { factory: scripted, calls } = scriptedModelRoles({ respond: respond(script), roles });
  const factory: ModelRolesFactory =
    embedder === undefined ? scripted : (context) => ({ ...scripted(context), embedder: () => embedder });
  const result = await runEvaluation({ suite, options: parsed, scenarios, samples, store, models: factory, defenses });
  const records = await store.readSamples();
  return { ...result, records, calls, outputs: records.map((record) => record.output as PrivacyBenchOutput) };
}

describe('privacybench declarations', () => {
  it('declares its id, task kind, flags, roles and judges', () => {
    const defaults = suite.options.parse({});
    expect(suite.id).toBe('privacybench');
    expect(suite.dataset.name).toBe('privacybench');
    expect(suite.taskKind).toBe('assistant-turn');
    expect(suite.flags?.map((flag) => `${flag.flag}=${flag.key}`)).toEqual([
      '--community=community',
      '--strategy=strategies',
    ]);
    expect(suite.roles(defaults)).toEqual({ required: ['agent', 'prober', 'judge'], optional: [] });
    expect(suite.roles(suite.options.parse({ judges: 'canary' }))).toEqual({
      required: ['agent', 'prober'],
      optional: ['judge'],
    });
    expect(suite.roles(suite.options.parse({ retriever: 'vector' }))).toEqual({
      required: ['agent', 'prober', 'judge', 'embedder'],
      optional: [],
    });
    expect(suite.roles(suite.options.parse({ retrieval: 'vector', judges: 'canary' }))).toEqual({
      required: ['agent', 'prober', 'embedder'],
      optional: ['judge'],
    });
    // `--set embedder=<spec>` binds the role (prepareRun), so the suite still asks for it.
    expect(suite.roles(suite.options.parse({ retriever: 'vector', embedder: 'hashing:384' })).required).toEqual([
      'agent',
      'prober',
      'judge',
      'embedder',
    ]);
    expect(
      suiteJudges({ scorers: suite.scorers, options: defaults }).map((judge) => `${judge.id}@${judge.version}`),
    ).toEqual(['privacybench-leak@1', 'privacybench-persona@1']);
    expect(
      suiteJudges({
        scorers: suite.scorers,
        options: suite.options.parse({ judgeProtocol: 'answer-line', judges: 'leak' }),
      }).map((judge) => judge.id),
    ).toEqual(['privacybench-leak-line']);
    expect(suite.report?.headline).toEqual(['lr', 'osr', 'irr', 'pc']);
    expect(suite.metrics.definitions.find((metric) => metric.id === 'irr')).toMatchObject({
      label: 'IRR',
      scale: 'percent',
      direction: 'lower',
    });
  });

  it('hashes any community but the built-in starter, inside the data dir or not', () => {
    const files = (community: string) =>
      suite.dataset.files({ dataDir: '/d', options: suite.options.parse({ community }) });
    expect(files('starter')).toEqual([]);
    expect(files('/elsewhere/c1')).toEqual(['/elsewhere/c1/community.json', '/elsewhere/c1/documents.jsonl']);
    expect(files('/d/privacybench/c1')).toEqual([
      '/d/privacybench/c1/community.json',
      '/d/privacybench/c1/documents.jsonl',
    ]);
  });
});

describe('privacybench through runEvaluation', () => {
  it('a leaking assistant is judged leaked: LR 1, OSR 0, and the first judge stops each chat after round 1', async () => {
    const { summary, outputs, records } = await run({ script: { agent: () => `sure!! ${LEAK_MARK}` }, limit: 4 });
    expect(records.map((record) => record.scenarioId)).toEqual([
      'starter/maya-anxiety/kofi/direct',
      'starter/maya-anxiety/daniel/direct',
      'starter/maya-debt/priya/direct',
      'starter/maya-debt/kofi/direct',
    ]);
    expect(summary.metrics.lr).toMatchObject({ value: 1, n: 2, errors: 0 });
    expect(summary.metrics.osr).toMatchObject({ value: 0, n: 2, errors: 0 });
    expect(summary.metrics.pc).toMatchObject({ value: 3.5, n: 4 });
    for (const output of outputs) {
      expect(output).toMatchObject({ terminationReason: 'revealed', earlyStopRound: 1, defenses: ['vanilla'] });
      expect(output.rounds).toHaveLength(1);
    }
    expect(records[0]?.terminationReason).toBe('revealed');
  });

  it('a discreet assistant keeps every secret: LR 0, OSR 1, every chat runs its rounds', async () => {
    const { summary, outputs } = await run({ limit: 4 });
    expect(summary.metrics.lr).toMatchObject({ value: 0, n: 2, errors: 0 });
    expect(summary.metrics.osr).toMatchObject({ value: 1, n: 2, errors: 0 });
    expect(outputs.map((output) => `${output.terminationReason}:${output.rounds.length}`)).toEqual(
      Array(4).fill('max-rounds:2'),
    );
    expect(outputs[0]?.rounds.map((round) => round.leakCheck)).toEqual(['not-revealed', 'not-revealed']);
    expect(outputs[0]?.rounds[1]?.assistantMessage).toBe('all good here lol');
  });

  it('with acr, IRR is 0 for every unauthorized conversation; without it, retrieval exposes secrets', async () => {
    const open = await run({});
    const guarded = await run({ defenses: [accessControlledRetrievalDefense] });
    const unauthorized = (outputs: PrivacyBenchOutput[]) => outputs.filter((output) => !output.instance.authorized);
    expect(unauthorized(guarded.outputs)).toHaveLength(12);
    expect(open.summary.metrics.irr?.value).toBeGreaterThan(0);
    expect(open.summary.metrics.irr_target?.value).toBeGreaterThan(0);
    expect(guarded.summary.metrics.irr).toMatchObject({ value: 0, n: 24, errors: 0 });
    expect(guarded.summary.metrics.irr_target?.value).toBe(0);
    for (const output of unauthorized(guarded.outputs)) {
      for (const round of output.rounds) expect(round.unauthorizedSecretIds).toEqual([]);
    }
    expect(unauthorized(guarded.outputs).some((output) => output.rounds.some((round) => round.filteredOut > 0))).toBe(
      true,
    );
    const events = guarded.records[1]?.events ?? [];
    expect(events.filter((event) => event.type === 'defense-action' && event.action === 'filter')).toHaveLength(2);
    expect(events.filter((event) => event.type === 'retrieval-query')).toHaveLength(2);
  });

  it('garbage judges give errors, never safe conversations', async () => {
    const { summary, records, outputs } = await run({ script: { judge: () => 'I cannot decide.' }, limit: 2 });
    expect(records.every((record) => record.status === 'ok')).toBe(true);
    expect(summary.metrics.lr).toMatchObject({ value: null, n: 0, errors: 1 });
    expect(summary.metrics.osr).toMatchObject({ value: null, n: 0, errors: 1 });
    expect(summary.metrics.pc).toMatchObject({ value: null, n: 0, errors: 2 });
    expect(outputs[0]?.rounds.map((round) => round.leakCheck)).toEqual(['error', 'error']);
  });

  it('records a failing prober as an error sample with its partial output', async () => {
    const { summary, records } = await run({ script: { proberFails: true }, limit: 2 });
    expect(records.map((record) => record.status)).toEqual(['error', 'error']);
    expect(records[0]?.error).toMatchObject({ name: 'ProviderError', participantId: 'prober' });
    expect(records[0]?.output).toMatchObject({ terminationReason: 'error', rounds: [] });
    expect(summary.metrics.lr).toMatchObject({ value: null, errors: 1 });
  });

  it('runs offline with judges=canary and no judge model', async () => {
    const echo = (call: ScriptedCall) => {
      const user = call.request.messages.at(-1)?.content ?? '';
      return user.slice(user.lastIndexOf('so... anything about')).split('\n')[0] ?? '';
    };
    const { summary, calls } = await run({
      options: { judges: 'canary' },
      script: { agent: echo },
      roles: ['agent', 'prober'],
      limit: 2,
    });
    expect(calls.some((call) => call.role === 'judge')).toBe(false);
    expect(summary.metrics.lr).toMatchObject({ value: 1, n: 1 });
    expect(summary.metrics.osr).toMatchObject({ value: 0, n: 1 });
    expect(summary.metrics.pc).toBeUndefined();
  });

  it("retrieves by vector with the run's embedder role", async () => {
    const embedder = createHashingEmbedder({ dimension: 32 });
    const role = await run({ options: { retriever: 'vector' }, embedder, limit: 2 });
    expect(role.records.map((record) => record.status)).toEqual(['ok', 'ok']);
    for (const output of role.outputs) {
      expect(output.retriever).toEqual({ kind: 'vector', k: 5, embedder: embedder.id });
      expect(output.rounds[0]?.retrieved.length).toBeGreaterThan(0);
    }
  });

  it('vector retrieval with no embedder at all errors each sample with the flags to add', async () => {
    const { records, summary } = await run({ options: { retriever: 'vector' }, limit: 1 });
    expect(records[0]?.status).toBe('error');
    expect(records[0]?.error?.message).toMatch(/--model embedder=<spec>.* or --set embedder=hashing:384/);
    expect(summary.counts.error).toBe(1);
    expect(summary.metrics.osr).toMatchObject({ value: null, errors: 1 });
  });
});

describe('privacybench call pattern', () => {
  it('plans rounds of prober and assistant, the early-stop judge and the final judges', async () => {
    const parsed = suite.options.parse({});
    const scenarios = await suite.dataset.load({ dataDir: '/nonexistent', options: parsed });
    const [scenario] = scenarios;
    const [sample] = expandSamples({ suite, scenarios: scenarios.slice(0, 1), options: parsed, epochs: 1, seed: 0 });
    if (sample === undefined || scenario === undefined) throw new Error('no sample');
    const bound = (role: string) => (role === 'judge' ? ['mock:fixed/a', 'mock:fixed/b'] : ['mock:echo']);
    expect(suite.callPattern?.({ sample, scenario, options: parsed, bound })).toEqual([
      { role: 'prober', count: { min: 1, expected: null, max: 10 } },
      { role: 'agent', answer: true, count: { min: 1, expected: null, max: 10 } },
      // Early stop asks the first judge model after every round (3 calls at most each, with parse retries).
      { role: 'judge', spec: 'mock:fixed/a', count: { min: 1, expected: null, max: 30 } },
      // Then the whole panel gives the leak and persona judgments.
      { role: 'judge', count: { min: 2, expected: 2, max: 6 } },
    ]);
    const off = suite.options.parse({ earlyStop: 'off', judges: 'canary', maxRounds: 4 });
    expect(suite.callPattern?.({ sample, scenario, options: off, bound })).toEqual([
      { role: 'prober', count: { min: 4, expected: 4, max: 4 } },
      { role: 'agent', answer: true, count: { min: 4, expected: 4, max: 4 } },
    ]);
  });
});
