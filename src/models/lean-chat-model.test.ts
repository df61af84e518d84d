import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closedPort,
  type MockOpenAIServer,
  type MockResponsePlan,
  startMockOpenAIServer,
} from '../../test/support/mock-openai-server.js';
import { MODEL_ROLES } from '../runner/role-registry.js';
import type { EmitEvent, GenerateRequest, GenerateResult } from '../spec/chat-model.js';
import type { TranscriptEvent } from '../spec/event.js';
import { isProviderError } from './provider-error.js';
import type { OpenAiCompatibleClient } from './provider-registry.js';
import { resolveChatModel } from './resolve-chat-model.js';
import { resolveModelRoles } from './resolve-model-roles.js';

// Parity of the two clients of OpenAI-compatible providers: every case runs once with the lean
// client and once with the AI SDK, through the whole wrapped model (events, retries, limiter,
// cache), against the same loopback server playing the same script, and both must give the same
// result or error, the same events, the same back-off waits and send the same requests.

const API_KEY = 'sk-parity-canary-0123456789abcdef';
const CLIENTS: readonly OpenAiCompatibleClient[] = ['lean', 'ai-sdk'];

let server: MockOpenAIServer;
let script: MockResponsePlan[] = [];
let offset = 0;

beforeAll(async () => {
  server = await startMockOpenAIServer({ handler: (_body, index) => script[index - offset] ?? { type: 'hang' } });
});
afterAll(() => server.close());

type ErrorSummary = {
  name: string;
  message: string;
  kind?: string;
  status?: number;
  retryAfterMs?: number;
  endpoint?: string;
};

/** What one client did for one case, in a form both clients must agree on. */
type Outcome = {
  result?: GenerateResult;
  error?: ErrorSummary;
  events: unknown[];
  sleeps: number[];
  requests: Array<{ path: string; authorization?: string; contentType?: string; body: unknown }>;
};

type CaseOptions = {
  plans: MockResponsePlan[];
  request?: Partial<GenerateRequest>;
  maxRetries?: number;
  timeoutMs?: number;
  baseURL?: string;
  cacheDir?: string;
  /** Called once the server holds the request (for aborts). */
  abortAfterArrival?: boolean;
};

function summarise(error: unknown): ErrorSummary {
  if (!(error instanceof Error)) return { name: 'NotAnError', message: String(error) };
  const summary: ErrorSummary = { name: error.name, message: error.message };
  if (isProviderError(error)) {
    summary.kind = error.kind;
    if (error.status !== undefined) summary.status = error.status;
    if (error.retryAfterMs !== undefined) summary.retryAfterMs = error.retryAfterMs;
    if (error.endpoint !== undefined) summary.endpoint = error.endpoint;
  }
  return summary;
}

async function waitForRequest(count: number): Promise<void> {
  while (server.count < count) await new Promise((resolve) => setTimeout(resolve, 5));
}

async function runCase(client: OpenAiCompatibleClient, options: CaseOptions): Promise<Outcome> {
  // The handler plays `script` from its start for this case's requests.
  script = options.plans;
  offset = server.count;
  server.calls.length = 0;
  const sleeps: number[] = [];
  const roles = await resolveModelRoles({
    roles: MODEL_ROLES,
    bindings: [{ role: 'agent', spec: `openai-compatible:m@${options.baseURL ?? server.baseURL}` }],
    env: { OPENAI_COMPATIBLE_API_KEY: API_KEY },
    cacheDir: options.cacheDir ?? null,
    cacheReads: true,
    maxRetries: options.maxRetries ?? 2,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    openAiCompatibleClient: client,
    sleep: (ms) => {
      sleeps.push(ms);
      return Promise.resolve();
    },
    random: () => 0.5,
  });
  const events: unknown[] = [];
  const emit: EmitEvent = (event) => {
    // Durations differ run to run; everything else must not.
    events.push({ ...event, durationMs: 0 });
    return { ...event, id: `e${events.length}`, time: 't' } as TranscriptEvent;
  };
  const controller = new AbortController();
  const model = roles.factory({ sampleId: 's1', epoch: 1, emit, signal: controller.signal }).model('agent');
  const outcome: Outcome = { events, sleeps, requests: [] };
  try {
    const pending = model.generate({
      messages: [{ role: 'user', content: 'hello there' }],
      settings: {},
      ...options.request,
    });
    if (options.abortAfterArrival) {
      await waitForRequest(offset + 1);
      controller.abort(new Error('sample cancelled'));
    }
    outcome.result = await pending;
  } catch (error) {
    outcome.error = summarise(error);
  } finally {
    roles.close();
  }
  outcome.requests = server.calls.map((call) => ({
    path: call.path,
    ...(call.headers.authorization === undefined ? {} : { authorization: call.headers.authorization }),
    ...(call.headers['content-type'] === undefined ? {} : { contentType: call.headers['content-type'] }),
    body: call.body,
  }));
  return outcome;
}

/** Runs a case on both clients and checks they agree; returns the (common) outcome. */
async function bothAgree(options: CaseOptions): Promise<Outcome> {
  const [lean, sdk] = [await runCase(CLIENTS[0]!, options), await runCase(CLIENTS[1]!, options)];
  expect(lean).toEqual(sdk);
  // The key is sent, and never shows in what a run keeps.
  const kept = JSON.stringify({ result: lean.result, error: lean.error, events: lean.events });
  expect(kept).not.toContain(API_KEY);
  return lean;
}

const completion = (fields: Record<string, unknown>): MockResponsePlan => ({
  type: 'malformed',
  body: JSON.stringify({
    id: 'chatcmpl-1',
    created: 1,
    model: 'm',
    object: 'chat.completion',
    ...fields,
  }),
});

describe('lean and AI SDK clients of openai-compatible, on the same loopback server', () => {
  it('a plain reply: same request bytes, result and event', async () => {
    const outcome = await bothAgree({
      plans: [{ type: 'text', text: 'Hi! How can I help?', usage: { promptTokens: 12, completionTokens: 6 } }],
      request: {
        messages: [
          { role: 'system', content: 'be brief' },
          { role: 'user', content: 'hello there' },
        ],
        settings: { temperature: 0, topP: 0.9, maxOutputTokens: 50, seed: 7, stop: ['END'] },
        responseSchema: { name: 'answer', jsonSchema: { type: 'object' } },
      },
    });
    expect(outcome.result).toMatchObject({
      text: 'Hi! How can I help?',
      toolCalls: [],
      finishReason: 'stop',
      usage: { inputTokens: 12, outputTokens: 6 },
      warnings: ['unsupported: responseFormat (JSON response format schema is only supported with structuredOutputs)'],
    });
    expect(outcome.requests).toEqual([
      {
        path: '/v1/chat/completions',
        authorization: `Bearer ${API_KEY}`,
        contentType: 'application/json',
        body: {
          model: 'm',
          max_tokens: 50,
          temperature: 0,
          top_p: 0.9,
          response_format: { type: 'json_object' },
          stop: ['END'],
          seed: 7,
          messages: [
            { role: 'system', content: 'be brief' },
            { role: 'user', content: 'hello there' },
          ],
        },
      },
    ]);
    expect(outcome.events).toHaveLength(1);
    expect(outcome.events[0]).toMatchObject({ type: 'model-call', attempts: 1, cached: false });
  });

  it('tool calls, a tool-call history and a bad argument string', async () => {
    const outcome = await bothAgree({
      plans: [
        {
          type: 'tool-calls',
          toolCalls: [
            { id: 'call_a', name: 'read', arguments: { path: 'notes.txt' } },
            { id: 'call_b', name: 'read', arguments: '{not json' },
          ],
          usage: { promptTokens: 30, completionTokens: 9 },
        },
      ],
      request: {
        messages: [
          { role: 'user', content: 'read two files' },
          {
            role: 'assistant',
            content: '',
            toolCalls: [
              { id: 'c1', name: 'read', input: { path: 'a' } },
              { id: 'c2', name: 'read', input: { path: 'b' } },
            ],
          },
          { role: 'tool', toolCallId: 'c1', toolName: 'read', content: 'A' },
          { role: 'tool', toolCallId: 'c2', toolName: 'read', content: 'no such file', isError: true },
        ],
        tools: [{ name: 'read', description: 'read a file', inputSchema: { type: 'object', properties: {} } }],
        toolChoice: 'auto',
      },
    });
    expect(outcome.result).toMatchObject({
      text: '',
      finishReason: 'tool-calls',
      toolCalls: [
        { id: 'call_a', name: 'read', input: { path: 'notes.txt' } },
        { id: 'call_b', name: 'read', input: '{not json' },
      ],
      usage: { inputTokens: 30, outputTokens: 9 },
    });
    const body = outcome.requests[0]?.body as { messages: unknown[]; tool_choice: string };
    expect(body.tool_choice).toBe('auto');
    expect(body.messages).toHaveLength(4);
  });

  it('usage: none reported is null, reasoning and prediction tokens are kept', async () => {
    const none = await bothAgree({ plans: [{ type: 'text', text: 'ok', usage: null }] });
    expect(none.result?.usage).toEqual({ inputTokens: null, outputTokens: null });
    const detailed = await bothAgree({
      plans: [
        completion({
          choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'length' }],
          usage: {
            prompt_tokens: 5,
            completion_tokens: 8,
            total_tokens: 13,
            completion_tokens_details: { reasoning_tokens: 3, accepted_prediction_tokens: 2 },
          },
        }),
      ],
    });
    expect(detailed.result).toMatchObject({
      finishReason: 'length',
      usage: { inputTokens: 5, outputTokens: 8, reasoningTokens: 3 },
    });
    expect(detailed.result?.providerMetadata?.['openai-compatible']).toEqual({ acceptedPredictionTokens: 2 });
  });

  it('429 with Retry-After: the same wait, then success; the same error once retries run out', async () => {
    const retried = await bothAgree({
      plans: [
        { type: 'status', status: 429, headers: { 'retry-after': '2' } },
        { type: 'text', text: 'done' },
      ],
    });
    expect(retried.result?.text).toBe('done');
    expect(retried.sleeps).toEqual([2000]);
    expect(retried.events[0]).toMatchObject({ attempts: 2 });
    const exhausted = await bothAgree({
      maxRetries: 1,
      plans: [
        { type: 'status', status: 429, headers: { 'retry-after': '1' } },
        {
          type: 'status',
          status: 429,
          headers: { 'retry-after': '3' },
          body: { error: { message: 'slow down', type: 'rate_limit' } },
        },
      ],
    });
    expect(exhausted.error).toMatchObject({
      name: 'ProviderError',
      kind: 'rate-limit',
      status: 429,
      retryAfterMs: 3000,
      message: 'openai-compatible:m: HTTP 429: slow down',
    });
  });

  it('500 then success; error bodies the OpenAI shape does not fit give the status text', async () => {
    const recovered = await bothAgree({
      plans: [
        { type: 'status', status: 500 },
        { type: 'text', text: 'second time' },
      ],
    });
    expect(recovered.result?.text).toBe('second time');
    expect(recovered.events[0]).toMatchObject({ attempts: 2 });
    const vllm404 = await bothAgree({
      plans: [{ type: 'status', status: 404, body: { object: 'error', message: 'no model', code: 404 } }],
    });
    expect(vllm404.error).toMatchObject({
      kind: 'deterministic',
      status: 404,
      message: 'openai-compatible:m: HTTP 404: Not Found',
    });
    const text = await bothAgree({ maxRetries: 0, plans: [{ type: 'status', status: 502, body: 'bad gateway' }] });
    expect(text.error).toMatchObject({ kind: 'transient', message: 'openai-compatible:m: HTTP 502: Bad Gateway' });
  });

  it('malformed answers: bad JSON, a wrong shape, no choices', async () => {
    const badJson = await bothAgree({ maxRetries: 0, plans: [{ type: 'malformed' }] });
    expect(badJson.error).toMatchObject({
      kind: 'transient',
      status: 200,
      message: 'openai-compatible:m: HTTP 200: Invalid JSON response',
    });
    const wrongShape = await bothAgree({ maxRetries: 0, plans: [completion({ choices: 'none' })] });
    expect(wrongShape.error).toMatchObject({ message: 'openai-compatible:m: HTTP 200: Invalid JSON response' });
    const noChoices = await bothAgree({ maxRetries: 0, plans: [completion({ choices: [] })] });
    expect(noChoices.error).toMatchObject({
      kind: 'transient',
      message: 'openai-compatible:m: malformed response: Response did not contain any choices.',
    });
    expect(noChoices.error?.status).toBeUndefined();
  });

  it('a refused connection: unreachable, with the same short retries', async () => {
    const port = await closedPort();
    const refused = await bothAgree({ plans: [], baseURL: `http://127.0.0.1:${port}/v1` });
    expect(refused.error).toMatchObject({
      name: 'ProviderError',
      kind: 'unreachable',
      endpoint: `http://127.0.0.1:${port}/v1`,
      message: `openai-compatible:m: request failed: Cannot connect to API: connect ECONNREFUSED 127.0.0.1:${port}`,
    });
    expect(refused.sleeps.length).toBeGreaterThan(0);
  });

  it("an abort by the caller's signal rethrows its reason; a client timeout is transient", async () => {
    const aborted = await bothAgree({ plans: [{ type: 'hang' }], abortAfterArrival: true });
    expect(aborted.error).toEqual({ name: 'Error', message: 'sample cancelled' });
    expect(aborted.events[0]).toMatchObject({ error: { name: 'Error', message: 'sample cancelled' } });
    const timedOut = await bothAgree({ maxRetries: 0, timeoutMs: 50, plans: [{ type: 'hang' }] });
    expect(timedOut.error).toMatchObject({
      kind: 'transient',
      message: 'openai-compatible:m: no response within 50 ms',
    });
  });

  it('secrets in an error body are scrubbed on both paths', async () => {
    const leaked = await bothAgree({
      maxRetries: 0,
      plans: [{ type: 'status', status: 401, body: { error: { message: `key ${API_KEY} is not valid` } } }],
    });
    expect(leaked.error?.message).toBe('openai-compatible:m: HTTP 401: key [redacted] is not valid');
  });

  it('both clients read and write the same cache entries', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'confidant-parity-cache-'));
    try {
      const first = await runCase('lean', { cacheDir, plans: [{ type: 'text', text: 'cached answer' }] });
      const second = await runCase('ai-sdk', { cacheDir, plans: [{ type: 'text', text: 'not asked' }] });
      expect(first.requests).toHaveLength(1);
      expect(second.requests).toHaveLength(0);
      expect(second.result?.text).toBe('cached answer');
      expect(second.events[0]).toMatchObject({ cached: true });
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });
});

describe('choosing the client', () => {
  async function userAgentOf(options: { client?: OpenAiCompatibleClient; fetch?: typeof fetch }) {
    script = [{ type: 'text', text: 'ok' }];
    offset = server.count;
    server.calls.length = 0;
    const { model } = await resolveChatModel({
      spec: `vllm:m@${server.baseURL}`,
      env: {},
      ...options,
    });
    await model.doGenerate({ messages: [{ role: 'user', content: 'hi' }], settings: {} });
    return server.calls[0]?.headers['user-agent'] ?? '';
  }

  it('is lean by default, the AI SDK on request or when a fetch is given, lean when asked even then', async () => {
    expect(await userAgentOf({})).not.toContain('ai-sdk');
    expect(await userAgentOf({ client: 'ai-sdk' })).toContain('ai-sdk/openai-compatible');
    const fetches: string[] = [];
    const countingFetch: typeof fetch = (input, init) => {
      fetches.push(String(input));
      return fetch(input, init);
    };
    expect(await userAgentOf({ fetch: countingFetch })).toContain('ai-sdk/openai-compatible');
    expect(fetches).toEqual([`${server.baseURL}/chat/completions`]);
    expect(await userAgentOf({ fetch: countingFetch, client: 'lean' })).not.toContain('ai-sdk');
    expect(fetches).toHaveLength(1);
  });
});
