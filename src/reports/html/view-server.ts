import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { contentSecurityPolicy, renderHtml } from './render-html.js';
import { SamplesFile } from './samples-file.js';
import type { ViewModel } from './view-model.js';

/** A running viewer. */
export type ViewServer = { url: string; port: number; close(): Promise<void> };

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'cross-origin-resource-policy': 'same-origin',
};

/**
 * Serves the HTML app for `model` (mode `server`) on 127.0.0.1 only, with each run's samples read
 * on demand from its `samples.jsonl` (opened read-only and indexed once by byte offset):
 * `GET /api/runs/<i>/index` (the browser rows), `/api/runs/<i>/samples/<id>` (one record) and
 * `/api/runs/<i>/search?q=` (ids whose record contains the text). Requests whose Host is not this
 * loopback address are refused (no DNS rebinding); only GET and HEAD are answered.
 */
export async function startViewServer({
  model,
  runDirs,
  port,
}: {
  model: ViewModel;
  runDirs: readonly string[];
  /** 0 picks a free port. */
  port: number;
}): Promise<ViewServer> {
  const files = await Promise.all(runDirs.map((dir) => SamplesFile.open(join(dir, 'samples.jsonl'))));
  const page = renderHtml({ ...model, mode: 'server' });
  const csp = contentSecurityPolicy({ connect: 'self' });
  let allowedHosts: string[] = [];

  const send = (response: ServerResponse, status: number, type: string, body: string) => {
    response.writeHead(status, { 'content-type': type, ...SECURITY_HEADERS, 'content-security-policy': csp });
    response.end(body);
  };
  const json = (response: ServerResponse, status: number, value: unknown) =>
    send(response, status, 'application/json; charset=utf-8', JSON.stringify(value));

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    if (!allowedHosts.includes(request.headers.host ?? '')) return send(response, 421, 'text/plain', 'wrong host\n');
    if (request.method !== 'GET' && request.method !== 'HEAD') return send(response, 405, 'text/plain', 'read-only\n');
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/' || url.pathname === '/index.html')
      return send(response, 200, 'text/html; charset=utf-8', page);
    const match = /^\/api\/runs\/(\d+)\/(index|search|samples\/(.+))$/.exec(url.pathname);
    const file = match === null ? undefined : files[Number(match[1])];
    if (match === null || file === undefined) return json(response, 404, { error: 'not found' });
    if (match[2] === 'index') return json(response, 200, file.rows);
    if (match[2] === 'search') return json(response, 200, await file.search(url.searchParams.get('q') ?? ''));
    const record = await file.record(decodeURIComponent(match[3] ?? ''));
    return record === null ? json(response, 404, { error: 'no such sample' }) : json(response, 200, record);
  };

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) json(response, 500, { error: error instanceof Error ? error.message : String(error) });
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  allowedHosts = [`127.0.0.1:${actual}`, `localhost:${actual}`];
  return {
    url: `http://127.0.0.1:${actual}/`,
    port: actual,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
