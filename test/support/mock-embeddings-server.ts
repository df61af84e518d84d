import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** An embeddings request the server handled; headers are lower-cased as Node gives them. */
export type RecordedEmbeddingsCall = {
  path: string;
  headers: Record<string, string>;
  body: { model?: string; input?: unknown; encoding_format?: string; [key: string]: unknown };
};

/** What the server answers to one request: vectors for its inputs, or an HTTP error. */
export type EmbeddingsPlan = { type: 'vectors' } | { type: 'status'; status: number; body?: object };

/** A running loopback embeddings server. */
export type MockEmbeddingsServer = {
  /** `http://127.0.0.1:<port>/v1`, the base URL to give a provider. */
  baseURL: string;
  /** Handled embeddings requests, in arrival order. */
  calls: RecordedEmbeddingsCall[];
  /** Stops listening and destroys every open socket. */
  close(): Promise<void>;
};

function sendJson(response: ServerResponse, status: number, value: unknown): void {
  const payload = JSON.stringify(value);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) });
  response.end(payload);
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/**
 * Starts an OpenAI-compatible `POST …/embeddings` server on 127.0.0.1 (a free port). Each input
 * string gets `vectorOf(text)`; `plan(callIndex)` may answer a request with an HTTP error
 * instead. Bounded: beyond `maxRequests` (default 1 000) requests get 503 without being handled.
 */
export async function startMockEmbeddingsServer({
  vectorOf,
  plan = () => ({ type: 'vectors' }),
  maxRequests = 1_000,
}: {
  vectorOf: (text: string) => number[];
  plan?: (callIndex: number) => EmbeddingsPlan;
  maxRequests?: number;
}): Promise<MockEmbeddingsServer> {
  const calls: RecordedEmbeddingsCall[] = [];
  const sockets = new Set<Socket>();
  let received = 0;

  async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    received++;
    const raw = await readBody(request);
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    if (request.method !== 'POST' || !path.endsWith('/embeddings')) {
      sendJson(response, 404, { error: { message: `mock embeddings server: no route for ${request.method} ${path}` } });
      return;
    }
    if (received > maxRequests) {
      sendJson(response, 503, {
        error: { message: `mock embeddings server: request limit of ${maxRequests} reached` },
      });
      return;
    }
    const body = JSON.parse(raw) as RecordedEmbeddingsCall['body'];
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    const callIndex = calls.length;
    calls.push({ path, headers, body });
    const answer = plan(callIndex);
    if (answer.type === 'status') {
      sendJson(response, answer.status, answer.body ?? { error: { message: `mock status ${answer.status}` } });
      return;
    }
    const inputs = Array.isArray(body.input) ? body.input.map(String) : [String(body.input)];
    sendJson(response, 200, {
      object: 'list',
      model: body.model ?? 'mock-embedding',
      data: inputs.map((text, index) => ({ object: 'embedding', index, embedding: vectorOf(text) })),
      usage: { prompt_tokens: inputs.length, total_tokens: inputs.length },
    });
  }

  const server = createServer((request, response) => {
    serve(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, { error: { message: String(error) } });
      else response.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('mock embeddings server: no TCP address');
  return {
    baseURL: `http://127.0.0.1:${address.port}/v1`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
