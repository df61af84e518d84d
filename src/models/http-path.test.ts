import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type MockOpenAIServer,
  type MockResponsePlan,
  scriptedHandler,
  startMockOpenAIServer,
} from '../../test/support/mock-openai-server.js';
import { MODEL_ROLES } from '../runner/role-registry.js';
import type { EmitEvent } from '../spec/chat-model.js';
import { ProviderError } from '../spec/errors.js';
import type { ModelCallEvent, TranscriptEvent } from '../spec/event.js';
import { type ResolvedModelRoles, resolveModelRoles } from './resolve-model-roles.js';

// End-to-end over real HTTP: the openai-compatible provider and the full wrapper against a
// loopback server on 127.0.0.1. Sleeps are recorded, not waited, so no test depends on timing.

const SECRET = 'sk-test-SECRET123';
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function server(plans: MockResponsePlan[] = []): Promise<MockOpenAIServer> {
  const started = await startMockOpenAIServer({ handler: scriptedHandler(plans), maxRequests: 50 });
  cleanups.push(() => started.close());
  return started;
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'confidant-http-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

type Setup = { spec: string; cacheDir?: string | null; cacheReads?: boolean; maxRetries?: number; timeoutMs?: number };

async function setup(options: Setup) {
  const sleeps: number[] = [];
  const roles: ResolvedModelRoles = await resolveModelRoles({
    roles: MODEL_ROLES,
    bindings: [{ role: 'agent', spec: options.spec }],
    env: { OPENAI_COMPATIBLE_API_KEY: SECRET },
    cacheDir: options.cacheDir ?? null,
    cacheReads: options.cacheReads ?? true,
    maxRetries: options.maxRetries ?? 3,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    sleep: async (ms) => void sleeps.push(ms),
    random: () => 1,
  });
  cleanups.push(() => roles.close());
  const events: ModelCallEvent[] = [];
  const emit: EmitEvent = (event) => {
    if (event.type === 'model-call') events.push({ ...event, id: `e${events.length}`, time: 't' });
    return { ...event, id: 'e', time: 't' } as TranscriptEvent;
  };
  const models = roles.factory({ sampleId: 's1', epoch: 1, emit, signal: new AbortController().signal });
  return { roles, agent: models.model('agent'), events, sleeps };
}

const ask = (content = 'hello there') => ({ messages: [{ role: 'user' as const, content }], settings: {} });
const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('HTTP path through the openai-compatible provider and the wrapper', () => {
  it('retries a 429 after its Retry-After and succeeds', async () => {
    const mock = await server([{ type: 'status', status: 429, headers: { 'retry-after': '1' } }]);
    const { agent, events, sleeps } = await setup({ spec: `openai-compatible:m@${mock.baseURL}` });
    const result = await agent.generate(ask());
    expect(result.text).toBe('hello there');
    expect(result.usage).toEqual({ inputTokens: 3, outputTokens: 3, reasoningTokens: 0 });
    expect(mock.calls).toHaveLength(2);
    expect(sleeps).toEqual([1000]);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ attempts: 2, cached: false, role: 'agent', provider: 'openai-compatible' });
    expect(mock.calls[0]?.headers.authorization).toBe(`Bearer ${SECRET}`);
  });

  it('records a ProviderError on the event when 500s exhaust the retries', async () => {
    const mock = await server(Array.from({ length: 5 }, () => ({ type: 'status' as const, status: 500 })));
    const { agent, events, sleeps } = await setup({ spec: `openai-compatible:m@${mock.baseURL}`, maxRetries: 2 });
    const error = await caught(agent.generate(ask()));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'transient', status: 500 });
    expect(mock.calls).toHaveLength(3);
    expect(sleeps).toEqual([2000, 4000]);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ response: null, attempts: 3, error: { name: 'ProviderError' } });
    expect(events[0]?.error?.message).toContain('HTTP 500');
  });

  it('turns a hung request into a transient error after the client timeout', async () => {
    const mock = await server([{ type: 'hang' }]);
    const { agent, events } = await setup({
      spec: `openai-compatible:m@${mock.baseURL}`,
      maxRetries: 0,
      timeoutMs: 150,
    });
    const error = await caught(agent.generate(ask()));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'transient' });
    expect((error as Error).message).toContain('no response within 150 ms');
    expect(events[0]?.error?.name).toBe('ProviderError');
  });

  it('treats malformed JSON as transient', async () => {
    const mock = await server([{ type: 'malformed' }, { type: 'malformed' }]);
    const { agent } = await setup({ spec: `openai-compatible:m@${mock.baseURL}`, maxRetries: 1 });
    const error = await caught(agent.generate(ask()));
    expect(error).toMatchObject({ name: 'ProviderError', kind: 'transient' });
    expect(mock.calls).toHaveLength(2);
  });

  it('does not retry a 400', async () => {
    const mock = await server([{ type: 'status', status: 400, body: { error: { message: 'bad request' } } }]);
    const { agent, sleeps, events } = await setup({ spec: `openai-compatible:m@${mock.baseURL}` });
    const error = await caught(agent.generate(ask()));
    expect(error).toMatchObject({ kind: 'deterministic', status: 400 });
    expect(mock.calls).toHaveLength(1);
    expect(sleeps).toEqual([]);
    expect(events[0]).toMatchObject({ attempts: 1 });
  });

  it('sends tools and maps tool calls back', async () => {
    const mock = await server([
      { type: 'tool-calls', toolCalls: [{ id: 'c1', name: 'send_email', arguments: { to: 'ann@example.test' } }] },
    ]);
    const { agent } = await setup({ spec: `openai-compatible:m@${mock.baseURL}` });
    const result = await agent.generate({
      ...ask(),
      tools: [{ name: 'send_email', description: 'Send mail', inputSchema: { type: 'object', properties: {} } }],
      toolChoice: 'auto',
      settings: { temperature: 0.2, maxOutputTokens: 64 },
    });
    expect(result.finishReason).toBe('tool-calls');
    expect(result.toolCalls).toEqual([{ id: 'c1', name: 'send_email', input: { to: 'ann@example.test' } }]);
    expect(mock.calls[0]?.body).toMatchObject({
      model: 'm',
      temperature: 0.2,
      max_tokens: 64,
      tool_choice: 'auto',
      tools: [{ type: 'function', function: { name: 'send_email', description: 'Send mail' } }],
    });
  });

  it('serves a repeated call from the cache, and bypasses reads with cacheReads false', async () => {
    const mock = await server();
    const cacheDir = tempDir();
    const first = await setup({ spec: `openai-compatible:m@${mock.baseURL}`, cacheDir });
    expect((await first.agent.generate(ask())).text).toBe('hello there');
    expect((await first.agent.generate(ask())).text).toBe('hello there');
    expect(mock.calls).toHaveLength(1);
    expect(first.events.map((event) => [event.cached, event.attempts, event.costUsd])).toEqual([
      [false, 1, null],
      [true, 0, 0],
    ]);
    expect(first.roles.ledger.byRole().agent).toMatchObject({ calls: 1, cachedCalls: 1 });

    const noReads = await setup({ spec: `openai-compatible:m@${mock.baseURL}`, cacheDir, cacheReads: false });
    expect((await noReads.agent.generate(ask())).text).toBe('hello there');
    expect(mock.calls).toHaveLength(2);
    expect(noReads.events[0]?.cached).toBe(false);
  });

  it('never stores the API key in the cache file, the events or the description', async () => {
    const mock = await server([
      { type: 'status', status: 401, body: { error: { message: `Incorrect API key provided: ${SECRET}` } } },
    ]);
    const cacheDir = tempDir();
    const { roles, agent, events } = await setup({ spec: `openai-compatible:m@${mock.baseURL}`, cacheDir });
    const unauthorized = await caught(agent.generate(ask('first')));
    expect(unauthorized).toMatchObject({ kind: 'deterministic', status: 401 });
    await agent.generate(ask('second'));
    await agent.generate(ask('second'));
    expect(mock.calls.every((call) => call.headers.authorization === `Bearer ${SECRET}`)).toBe(true);
    roles.close();
    const files = ['responses.sqlite', 'responses.sqlite-wal', 'responses.sqlite-shm']
      .map((name) => join(cacheDir, name))
      .filter((path) => existsSync(path));
    expect(files.length).toBeGreaterThan(0);
    const stored = Buffer.concat(files.map((path) => readFileSync(path)));
    expect(stored.includes(Buffer.from('second'))).toBe(true);
    expect(stored.includes(Buffer.from('SECRET123'))).toBe(false);
    expect(events).toHaveLength(3);
    expect(events[0]?.error?.message).toContain('[redacted]');
    expect(JSON.stringify(events)).not.toContain('SECRET123');
    expect(JSON.stringify(roles.describe())).not.toContain('SECRET123');
  });

  it('spreads calls over an endpoint pool of two servers', async () => {
    const a = await server();
    const b = await server();
    const { agent, roles } = await setup({ spec: `vllm:m@${a.baseURL},${b.baseURL}` });
    await Promise.all(Array.from({ length: 6 }, (_, index) => agent.generate(ask(`q${index}`))));
    expect(a.calls).toHaveLength(3);
    expect(b.calls).toHaveLength(3);
    expect(roles.describe().agent?.[0]?.endpoints).toEqual([a.baseURL, b.baseURL]);
  });

  it('shares one limiter per endpoint across roles', async () => {
    let inFlight = 0;
    let peak = 0;
    const mock = await startMockOpenAIServer({
      maxRequests: 20,
      handler: async (body) => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 20));
        inFlight--;
        return { type: 'text', text: String(body.model) };
      },
    });
    cleanups.push(() => mock.close());
    const roles = await resolveModelRoles({
      roles: MODEL_ROLES,
      bindings: [
        { role: 'agent', spec: `openai-compatible:a@${mock.baseURL}` },
        { role: 'judge', spec: `openai-compatible:j@${mock.baseURL}` },
      ],
      env: {},
      cacheDir: null,
      cacheReads: true,
      maxConnections: 1,
    });
    cleanups.push(() => roles.close());
    const emit: EmitEvent = (event) => ({ ...event, id: 'e', time: 't' }) as TranscriptEvent;
    const models = roles.factory({ sampleId: 's', epoch: 1, emit, signal: new AbortController().signal });
    const replies = await Promise.all([
      models.model('agent').generate(ask()),
      models.model('judge').generate(ask()),
      models.model('agent').generate(ask('again')),
    ]);
    expect(replies.map((reply) => reply.text)).toEqual(['a', 'j', 'a']);
    expect(mock.calls).toHaveLength(3);
    expect(peak).toBe(1);
  });
});
