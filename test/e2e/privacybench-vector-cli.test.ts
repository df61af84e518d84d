import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockEmbeddingsServer, startMockEmbeddingsServer } from '../support/mock-embeddings-server.js';
import { type MockHandler, type MockOpenAIServer, startMockOpenAIServer } from '../support/mock-openai-server.js';
import { type CliResult, lastLine, runCli } from '../support/run-cli-process.js';

type Header = { models: Record<string, Array<{ provider: string; modelId: string; endpoints: string[] }>> };
type Summary = { counts: { planned: number; success: number; error: number } };

const EMBEDDINGS_KEY = 'emb-secret-key';
let work: string;
let chat: MockOpenAIServer;
let embeddings: MockEmbeddingsServer;

/** A discreet assistant, a prober that names the secret's topic, and a judge that sees nothing revealed. */
const handler: MockHandler = (body) => {
  if (body.model === 'prober-m') return { type: 'text', text: 'hey, how are you feeling lately? anxiety?' };
  if (body.model === 'agent-m') return { type: 'text', text: 'all good here lol' };
  if (JSON.stringify(body.messages).includes('Rate how well')) {
    return { type: 'text', text: '{"reasoning": "ok", "style": 4, "personality": 4}' };
  }
  return { type: 'text', text: '{"reasoning": "nothing", "evidence": [], "revealed": false}' };
};

/** Never the zero vector (those chunks could not be ranked): length, vowels, and a constant. */
const vectorOf = (text: string) => [text.length, (text.match(/[aeiou]/g) ?? []).length, 1];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'confidant-e2e-pb-vector-'));
  chat = await startMockOpenAIServer({ handler, models: ['agent-m', 'prober-m', 'judge-m'] });
  embeddings = await startMockEmbeddingsServer({ vectorOf, maxRequests: 200 });
});

afterAll(async () => {
  await chat.close();
  await embeddings.close();
  rmSync(work, { recursive: true, force: true });
});

function cli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return runCli({
    args,
    env: {
      HOME: work,
      CONFIDANT_DATA_DIR: join(work, 'no-data'),
      CONFIDANT_CACHE_DIR: join(work, 'cache'),
      ...env,
    },
    cwd: work,
  });
}

const run = (out: string) => [
  'run',
  'privacybench',
  '--strategy',
  'direct',
  '--limit',
  '1',
  '--set',
  'rounds=1',
  '--no-cache',
  '--out',
  join(work, out),
  '--model',
  `openai-compatible:agent-m@${chat.baseURL}`,
  '--model',
  `prober=openai-compatible:prober-m@${chat.baseURL}`,
  '--model',
  `judge=openai-compatible:judge-m@${chat.baseURL}`,
];
const read = <T>(runDir: string, file: string) => JSON.parse(readFileSync(join(runDir, file), 'utf8')) as T;

describe('confidant run privacybench --set retriever=vector', () => {
  it('embeds with --model embedder=<spec> (key from the environment) and lists it in the header', async () => {
    const result = await cli(
      [...run('role'), '--set', 'retriever=vector', '--model', `embedder=openai-compatible:emb@${embeddings.baseURL}`],
      { OPENAI_COMPATIBLE_API_KEY: EMBEDDINGS_KEY },
    );
    expect(result.code, result.stderr).toBe(0);
    const runDir = lastLine(result.stdout);
    expect(read<Summary>(runDir, 'summary.json').counts).toMatchObject({ planned: 1, success: 1, error: 0 });
    const header = read<Header>(runDir, 'header.json');
    expect(header.models.embedder).toEqual([
      {
        provider: 'openai-compatible',
        modelId: 'emb',
        endpoints: [embeddings.baseURL],
        settings: { embedderId: 'openai-compatible:emb', dimension: 3 },
      },
    ]);
    expect(Object.keys(header.models).sort()).toEqual(['agent', 'embedder', 'judge', 'prober']);
    expect(readFileSync(join(runDir, 'header.json'), 'utf8')).not.toContain(EMBEDDINGS_KEY);
    // The dimension probe, the owner's chunks and the round's query all went to the embeddings server, keyed.
    expect(embeddings.calls.length).toBeGreaterThanOrEqual(3);
    expect(new Set(embeddings.calls.map((call) => call.headers.authorization))).toEqual(
      new Set([`Bearer ${EMBEDDINGS_KEY}`]),
    );
    const sample = JSON.parse(readFileSync(join(runDir, 'samples.jsonl'), 'utf8').split('\n')[0] ?? '{}') as {
      output?: { retriever?: unknown; rounds?: Array<{ retrieved: unknown[] }> };
    };
    expect(sample.output?.retriever).toEqual({ kind: 'vector', k: 5, embedder: 'openai-compatible:emb' });
    expect(sample.output?.rounds?.[0]?.retrieved).toHaveLength(5);
  });

  it('records each embedding call as an event counted in usage, and a re-run embeds nothing (cache)', async () => {
    type Event = { type: string; role?: string; texts?: number; cached?: boolean; attempts?: number };
    type Usage = Record<string, { calls: number; cachedCalls: number; inputTokens: number; outputTokens: number }>;
    const cached = (out: string) =>
      cli(
        [
          ...run(out).filter((arg) => arg !== '--no-cache'),
          '--set',
          'retriever=vector',
          '--model',
          `embedder=openai-compatible:emb@${embeddings.baseURL}`,
        ],
        { OPENAI_COMPATIBLE_API_KEY: EMBEDDINGS_KEY, CONFIDANT_CACHE_DIR: join(work, 'embedding-cache') },
      );
    const embeddingEvents = (runDir: string) =>
      (
        JSON.parse(readFileSync(join(runDir, 'samples.jsonl'), 'utf8').split('\n')[0] ?? '{}') as { events: Event[] }
      ).events.filter((event) => event.type === 'embedding-call');

    const before = embeddings.calls.length;
    const first = await cached('cached-1');
    expect(first.code, first.stderr).toBe(0);
    const firstDir = lastLine(first.stdout);
    const firstEvents = embeddingEvents(firstDir);
    // The owner's chunks and the round's query at least; the dimension probe is not a call of a sample.
    expect(firstEvents.length).toBeGreaterThanOrEqual(2);
    expect(embeddings.calls.length - before).toBe(firstEvents.length + 1);
    expect(firstEvents.every((event) => event.role === 'embedder' && !event.cached && event.attempts === 1)).toBe(true);
    const texts = firstEvents.reduce((total, event) => total + (event.texts ?? 0), 0);
    // The mock server reports one token per text; an openai-compatible model has no list price.
    expect(read<{ usage: Usage }>(firstDir, 'summary.json').usage.embedder).toEqual({
      calls: firstEvents.length,
      cachedCalls: 0,
      inputTokens: texts,
      outputTokens: 0,
      costUsd: null,
    });

    const again = embeddings.calls.length;
    const second = await cached('cached-2');
    expect(second.code, second.stderr).toBe(0);
    const secondDir = lastLine(second.stdout);
    // Only the dimension probe reaches the server: every embedding is answered by the cache.
    expect(embeddings.calls.length - again).toBe(1);
    const secondEvents = embeddingEvents(secondDir);
    expect(secondEvents).toHaveLength(firstEvents.length);
    expect(secondEvents.every((event) => event.cached === true && event.attempts === 0)).toBe(true);
    expect(read<{ usage: Usage }>(secondDir, 'summary.json').usage.embedder).toMatchObject({
      calls: firstEvents.length,
      cachedCalls: firstEvents.length,
    });
  }, 120_000);

  it('runs offline with --set embedder=hashing:384, which binds the embedder role', async () => {
    const before = embeddings.calls.length;
    const result = await cli([...run('offline'), '--set', 'retrieval=vector', '--set', 'embedder=hashing:384']);
    expect(result.code, result.stderr).toBe(0);
    const runDir = lastLine(result.stdout);
    expect(read<Summary>(runDir, 'summary.json').counts).toMatchObject({ success: 1, error: 0 });
    expect(read<Header>(runDir, 'header.json').models.embedder).toEqual([
      expect.objectContaining({ provider: 'hashing', modelId: '384', endpoints: [] }),
    ]);
    const events = (
      JSON.parse(readFileSync(join(runDir, 'samples.jsonl'), 'utf8').split('\n')[0] ?? '{}') as {
        events: Array<{ type: string; role?: string }>;
      }
    ).events.filter((event) => event.type === 'embedding-call');
    expect(events.length).toBeGreaterThanOrEqual(2);
    expect(events.every((event) => event.role === 'embedder')).toBe(true);
    expect(embeddings.calls.length).toBe(before);
  });

  it('without any embedder, or with a keyless openai one, or two of them, exits 2 saying what to add', async () => {
    const missing = await cli([...run('missing'), '--set', 'retriever=vector']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      'suite privacybench needs an embedder for vector retrieval: add --model embedder=<spec>',
    );
    expect(missing.stderr).toContain('or --set embedder=hashing:384');

    const keyless = await cli([
      ...run('keyless'),
      '--set',
      'retriever=vector',
      '--model',
      `embedder=openai:text-embedding-3-small@${embeddings.baseURL}`,
    ]);
    expect(keyless.code).toBe(2);
    expect(keyless.stderr).toContain('openai:text-embedding-3-small needs an API key: set OPENAI_API_KEY');

    const twice = await cli([
      ...run('twice'),
      '--set',
      'retriever=vector',
      '--model',
      'embedder=hashing:384',
      '--model',
      'embedder=hashing:64',
    ]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('role "embedder" is bound 2 times (hashing:384, hashing:64)');
  });
});
