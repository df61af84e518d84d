import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** A tool call the mock returns; object arguments are JSON-encoded, strings are sent verbatim. */
export type MockToolCallPlan = { id?: string; name: string; arguments: unknown };

/** Token usage the mock reports; `null` omits the usage block. Default: 4 characters a token. */
export type MockUsagePlan = { promptTokens: number; completionTokens: number } | null;

/** What the server does with one request. `latencyMs` delays the answer. */
export type MockResponsePlan =
  | { type: 'text'; text: string; finishReason?: string; usage?: MockUsagePlan; latencyMs?: number }
  | { type: 'tool-calls'; toolCalls: MockToolCallPlan[]; text?: string; usage?: MockUsagePlan; latencyMs?: number }
  | { type: 'status'; status: number; headers?: Record<string, string>; body?: string | object; latencyMs?: number }
  | { type: 'hang' }
  | { type: 'malformed'; body?: string; latencyMs?: number };

/** The parsed JSON body of a chat completions request (only the fields the mock reads are typed). */
export type ChatCompletionsBody = {
  model?: string;
  messages?: Array<{ role?: string; content?: unknown }>;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  [key: string]: unknown;
};

/** Decides the answer to a request from its body and 0-based index among handled requests. */
export type MockHandler = (
  body: ChatCompletionsBody,
  callIndex: number,
) => MockResponsePlan | Promise<MockResponsePlan>;

/** A request the server handled. Headers are lower-cased as Node gives them. */
export type RecordedCall = { method: string; path: string; headers: Record<string, string>; body: ChatCompletionsBody };

/**
 * What `GET …/models` answers: the list of served model ids (the default, from `models`), a
 * 404 as from a server without the route, another status, or no answer at all.
 */
export type MockModelsPlan =
  | { type: 'list'; ids: readonly string[] }
  | { type: 'absent' }
  | { type: 'status'; status: number; body?: string | object }
  | { type: 'hang' };

/** Options of `startMockOpenAIServer`. */
export type MockOpenAIServerOptions = {
  handler?: MockHandler;
  maxRequests?: number;
  latencyMs?: number;
  recordCalls?: boolean;
  /** The model ids `GET …/models` lists (default: none). */
  models?: readonly string[];
  /** Replaces the `GET …/models` listing (e.g. a server that does not serve the route). */
  modelsRoute?: MockModelsPlan;
  /** Chat requests naming a model not in `models` get vLLM's 404 "model does not exist" (default false). */
  rejectUnknownModels?: boolean;
  /** When set, every request without `Authorization: Bearer <apiKey>` gets 401, as from a server started with a key. */
  apiKey?: string;
  /** Listen on this port (e.g. to bring back a server a run saw die); default: a free one. */
  port?: number;
};

/** A running loopback server. */
export type MockOpenAIServer = {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** `http://127.0.0.1:<port>/v1`, the base URL to give a provider. */
  baseURL: string;
  port: number;
  /** Handled chat completions requests, in arrival order (empty when recording is off). */
  calls: RecordedCall[];
  /** Chat completions requests received, including refused ones. */
  readonly count: number;
  /** `GET …/models` requests received (pre-flight probes), including refused ones. */
  readonly modelListings: number;
  /** Stops listening and destroys every open socket (hanging requests included). */
  close(): Promise<void>;
};

/** The refusal text of `refuseHandler`. */
export const MOCK_SERVER_REFUSAL = "I'm sorry, but I can't help with that.";

/** The text of the last user message (string content or text parts). */
export function lastUserText(body: ChatCompletionsBody): string {
  const messages = body.messages ?? [];
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message?.role !== 'user') continue;
    const content = message.content;
    if (typeof content === 'string') return content;
    if (Array.isArray(content)) {
      return content
        .map((part: unknown) =>
          typeof part === 'object' && part !== null && 'text' in part && typeof part.text === 'string' ? part.text : '',
        )
        .join('');
    }
    return '';
  }
  return '';
}

/** Replies with the last user message. */
export const echoHandler: MockHandler = (body) => ({ type: 'text', text: lastUserText(body) });

/** Always refuses. */
export const refuseHandler: MockHandler = () => ({ type: 'text', text: MOCK_SERVER_REFUSAL });

/** Plays `plans` in order, one per request, then `fallback` (default: echo). */
export function scriptedHandler(plans: readonly MockResponsePlan[], fallback: MockHandler = echoHandler): MockHandler {
  return (body, index) => plans[index] ?? fallback(body, index);
}

function promptChars(body: ChatCompletionsBody): number {
  return (body.messages ?? []).reduce(
    (sum, message) => sum + (typeof message.content === 'string' ? message.content.length : 0),
    0,
  );
}

function usageBlock(plan: MockUsagePlan | undefined, body: ChatCompletionsBody, output: string) {
  if (plan === null) return undefined;
  const prompt = plan?.promptTokens ?? Math.ceil(promptChars(body) / 4);
  const completion = plan?.completionTokens ?? Math.ceil(output.length / 4);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

type Reply = Extract<MockResponsePlan, { type: 'text' | 'tool-calls' }>;

function replyParts(plan: Reply, callIndex: number) {
  const toolCalls =
    plan.type === 'tool-calls'
      ? plan.toolCalls.map((call, index) => ({
          id: call.id ?? `call_${callIndex}_${index}`,
          type: 'function' as const,
          function: {
            name: call.name,
            arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
          },
        }))
      : [];
  const text = plan.type === 'text' ? plan.text : (plan.text ?? '');
  const finishReason = plan.type === 'text' ? (plan.finishReason ?? 'stop') : 'tool_calls';
  return { text, toolCalls, finishReason };
}

function sendJson(response: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}) {
  const payload = JSON.stringify(value);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(payload),
    ...headers,
  });
  response.end(payload);
}

function sendCompletion(response: ServerResponse, plan: Reply, body: ChatCompletionsBody, callIndex: number) {
  const { text, toolCalls, finishReason } = replyParts(plan, callIndex);
  const usage = usageBlock(plan.usage, body, text);
  const base = {
    id: `chatcmpl-mock-${callIndex}`,
    created: Math.floor(Date.now() / 1000),
    model: body.model ?? 'mock',
  };
  if (!body.stream) {
    sendJson(response, 200, {
      ...base,
      object: 'chat.completion',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: text, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) },
          finish_reason: finishReason,
        },
      ],
      ...(usage ? { usage } : {}),
    });
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (value: object) =>
    response.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', ...value })}\n\n`);
  chunk({ choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
  const half = Math.ceil(text.length / 2);
  for (const piece of [text.slice(0, half), text.slice(half)]) {
    if (piece) chunk({ choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] });
  }
  toolCalls.forEach((call, index) => {
    chunk({ choices: [{ index: 0, delta: { tool_calls: [{ index, ...call }] }, finish_reason: null }] });
  });
  chunk({ choices: [{ index: 0, delta: {}, finish_reason: finishReason }] });
  if (usage && body.stream_options?.include_usage) chunk({ choices: [], usage });
  response.end('data: [DONE]\n\n');
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** A free loopback port with nothing listening on it (for "connection refused" tests). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('mock server: no TCP address');
  return address.port;
}

/**
 * Starts a real OpenAI-compatible server on 127.0.0.1 (a free port, or `port`) serving
 * `POST …/chat/completions` as JSON, or as SSE when the request says `stream: true`, and
 * `GET …/models` (the ids in `models`, or `modelsRoute`). Each chat request's answer comes from
 * `handler` (default: echo). It is bounded: beyond `maxRequests` (default 100 000) chat requests
 * are refused with 503 without reaching the handler.
 */
export async function startMockOpenAIServer(options: MockOpenAIServerOptions = {}): Promise<MockOpenAIServer> {
  const handler = options.handler ?? echoHandler;
  const maxRequests = options.maxRequests ?? 100_000;
  const record = options.recordCalls ?? true;
  const served = options.models ?? [];
  const modelsRoute: MockModelsPlan = options.modelsRoute ?? { type: 'list', ids: served };
  const calls: RecordedCall[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let count = 0;
  let modelListings = 0;
  let handled = 0;

  const authorized = (request: IncomingMessage) =>
    options.apiKey === undefined || request.headers.authorization === `Bearer ${options.apiKey}`;

  function serveModels(response: ServerResponse) {
    if (modelsRoute.type === 'hang') return;
    if (modelsRoute.type === 'absent') {
      sendJson(response, 404, { error: { message: 'mock server: no route for GET /v1/models' } });
    } else if (modelsRoute.type === 'status') {
      const payload = modelsRoute.body ?? { error: { message: `mock status ${modelsRoute.status}` } };
      if (typeof payload === 'string') {
        response.writeHead(modelsRoute.status, { 'content-type': 'text/plain' });
        response.end(payload);
      } else sendJson(response, modelsRoute.status, payload);
    } else {
      sendJson(response, 200, {
        object: 'list',
        data: modelsRoute.ids.map((id) => ({ id, object: 'model', created: 0, owned_by: 'mock' })),
      });
    }
  }

  const later = (ms: number, action: () => void) => {
    if (ms <= 0) return action();
    const timer = setTimeout(() => {
      timers.delete(timer);
      action();
    }, ms);
    timers.add(timer);
  };

  async function serve(request: IncomingMessage, response: ServerResponse) {
    const raw = await readBody(request);
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const unauthorized = () =>
      sendJson(response, 401, {
        error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' },
      });
    if (request.method === 'GET' && path.endsWith('/models')) {
      modelListings++;
      if (!authorized(request)) unauthorized();
      else serveModels(response);
      return;
    }
    if (request.method !== 'POST' || !path.endsWith('/chat/completions')) {
      sendJson(response, 404, { error: { message: `mock server: no route for ${request.method} ${path}` } });
      return;
    }
    count++;
    if (!authorized(request)) {
      unauthorized();
      return;
    }
    if (count > maxRequests) {
      sendJson(response, 503, { error: { message: `mock server: request limit of ${maxRequests} reached` } });
      return;
    }
    let body: ChatCompletionsBody;
    try {
      body = JSON.parse(raw) as ChatCompletionsBody;
    } catch {
      sendJson(response, 400, { error: { message: 'mock server: request body is not JSON' } });
      return;
    }
    if (options.rejectUnknownModels && !served.includes(body.model ?? '')) {
      sendJson(response, 404, {
        object: 'error',
        message: `The model \`${body.model ?? ''}\` does not exist.`,
        type: 'NotFoundError',
        code: 404,
      });
      return;
    }
    const callIndex = handled++;
    if (record) {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) {
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      calls.push({ method: request.method, path, headers, body });
    }
    let plan: MockResponsePlan;
    try {
      plan = await handler(body, callIndex);
    } catch (error) {
      sendJson(response, 500, { error: { message: `mock handler failed: ${String(error)}` } });
      return;
    }
    if (plan.type === 'hang') return;
    later(plan.latencyMs ?? options.latencyMs ?? 0, () => {
      if (response.destroyed) return;
      if (plan.type === 'status') {
        const payload = plan.body ?? { error: { message: `mock status ${plan.status}`, type: 'mock_error' } };
        if (typeof payload === 'string') {
          response.writeHead(plan.status, { 'content-type': 'text/plain', ...plan.headers });
          response.end(payload);
        } else sendJson(response, plan.status, payload, plan.headers);
      } else if (plan.type === 'malformed') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(plan.body ?? '{"choices": [ {"message": ');
      } else sendCompletion(response, plan, body, callIndex);
    });
  }

  const server = createServer((request, response) => {
    serve(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, { error: { message: String(error) } });
      else response.destroy();
    });
  });
  server.keepAliveTimeout = 60_000;
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('mock server: no TCP address');
  const url = `http://127.0.0.1:${address.port}`;
  return {
    url,
    baseURL: `${url}/v1`,
    port: address.port,
    calls,
    get count() {
      return count;
    },
    get modelListings() {
      return modelListings;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
