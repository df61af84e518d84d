import { afterEach, describe, expect, it } from 'vitest';
import {
  closedPort,
  MOCK_SERVER_REFUSAL,
  type MockOpenAIServer,
  refuseHandler,
  scriptedHandler,
  startMockOpenAIServer,
} from './mock-openai-server.js';

const servers: MockOpenAIServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function start(options: Parameters<typeof startMockOpenAIServer>[0] = {}) {
  const server = await startMockOpenAIServer(options);
  servers.push(server);
  return server;
}

const post = (server: MockOpenAIServer, body: object, init: RequestInit = {}) =>
  fetch(`${server.baseURL}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test' },
    body: JSON.stringify(body),
    ...init,
  });

type CompletionJson = {
  choices: Array<{ index: number; message: { role: string; content: string | null }; finish_reason: string }>;
  error?: { message: string };
};
type ChunkJson = {
  choices: Array<{ delta?: { content?: string }; finish_reason?: string | null }>;
  usage?: { completion_tokens: number };
};
const readJson = async (response: Response) => (await response.json()) as CompletionJson;

const chat = {
  model: 'm',
  messages: [
    { role: 'system', content: 'sys' },
    { role: 'user', content: 'ping me' },
  ],
};

describe('mock OpenAI server', () => {
  it('echoes the last user message as a chat completion, with usage, and records the call', async () => {
    const server = await start();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await post(server, chat);
    expect(response.status).toBe(200);
    const json = await response.json();
    expect(json).toMatchObject({
      object: 'chat.completion',
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: 'ping me' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
    });
    expect(server.count).toBe(1);
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]).toMatchObject({ method: 'POST', path: '/v1/chat/completions', body: chat });
    expect(server.calls[0]?.headers.authorization).toBe('Bearer sk-test');
  });

  it('returns tool calls and HTTP statuses with headers', async () => {
    const server = await start({
      handler: scriptedHandler([
        { type: 'tool-calls', toolCalls: [{ id: 'c1', name: 'send', arguments: { to: 'bob' } }] },
        { type: 'status', status: 429, headers: { 'retry-after': '1' } },
        { type: 'status', status: 500, body: 'oops' },
      ]),
    });
    const tools = await readJson(await post(server, chat));
    expect(tools.choices[0]).toEqual({
      index: 0,
      message: {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'send', arguments: '{"to":"bob"}' } }],
      },
      finish_reason: 'tool_calls',
    });
    const limited = await post(server, chat);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect((await readJson(limited)).error?.message).toBe('mock status 429');
    const failed = await post(server, chat);
    expect(failed.status).toBe(500);
    expect(await failed.text()).toBe('oops');
    expect((await readJson(await post(server, chat))).choices[0]?.message.content).toBe('ping me');
  });

  it('streams SSE when asked', async () => {
    const server = await start({ handler: refuseHandler });
    const response = await post(server, { ...chat, stream: true, stream_options: { include_usage: true } });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = (await response.text())
      .split('\n\n')
      .filter(Boolean)
      .map((line) => line.replace(/^data: /, ''));
    expect(events.at(-1)).toBe('[DONE]');
    const chunks = events.slice(0, -1).map((event) => JSON.parse(event) as ChunkJson);
    const text = chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? '').join('');
    expect(text).toBe(MOCK_SERVER_REFUSAL);
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe('stop');
    expect(chunks.at(-1)?.usage?.completion_tokens).toBe(Math.ceil(MOCK_SERVER_REFUSAL.length / 4));
  });

  it('sends malformed JSON', async () => {
    const server = await start({ handler: () => ({ type: 'malformed' }) });
    const response = await post(server, chat);
    expect(response.status).toBe(200);
    await expect(response.json()).rejects.toThrow();
  });

  it('hangs until closed', async () => {
    const server = await startMockOpenAIServer({ handler: () => ({ type: 'hang' }) });
    const pending = post(server, chat).then(
      () => 'answered',
      () => 'connection closed',
    );
    while (server.count === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await server.close();
    expect(await pending).toBe('connection closed');
  });

  it('refuses requests beyond the limit without calling the handler', async () => {
    let handled = 0;
    const server = await start({
      maxRequests: 2,
      handler: () => {
        handled++;
        return { type: 'text', text: 'ok' };
      },
    });
    const statuses = [];
    for (let index = 0; index < 4; index++) statuses.push((await post(server, chat)).status);
    expect(statuses).toEqual([200, 200, 503, 503]);
    expect(handled).toBe(2);
    expect(server.count).toBe(4);
  });

  it('answers unknown routes with 404 and bad JSON with 400', async () => {
    const server = await start();
    expect((await fetch(`${server.url}/v1/embeddings`)).status).toBe(404);
    expect((await post(server, {}, { body: '{nope' })).status).toBe(400);
  });

  it('lists its models at GET /models, counted apart from chat requests', async () => {
    const server = await start({ models: ['m', 'n'] });
    const response = await fetch(`${server.baseURL}/models`);
    expect(response.status).toBe(200);
    const json = (await response.json()) as { data: Array<{ id: string }> };
    expect(json.data.map((model) => model.id)).toEqual(['m', 'n']);
    expect(server.modelListings).toBe(1);
    expect(server.count).toBe(0);
  });

  it('can leave /models unserved, answer 404 for unknown models and demand a key', async () => {
    const absent = await start({ modelsRoute: { type: 'absent' } });
    expect((await fetch(`${absent.baseURL}/models`)).status).toBe(404);
    const strict = await start({ models: ['m'], rejectUnknownModels: true, apiKey: 'sk-test' });
    expect((await post(strict, chat)).status).toBe(200);
    const unknown = await post(strict, { ...chat, model: 'other' });
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('The model `other` does not exist.');
    expect((await post(strict, chat, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    expect((await fetch(`${strict.baseURL}/models`)).status).toBe(401);
  });

  it('finds a closed port', async () => {
    const port = await closedPort();
    await expect(fetch(`http://127.0.0.1:${port}/v1/models`)).rejects.toThrow();
  });
});
