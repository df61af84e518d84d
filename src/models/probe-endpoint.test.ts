import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  closedPort,
  type MockOpenAIServer,
  type MockOpenAIServerOptions,
  startMockOpenAIServer,
} from '../../test/support/mock-openai-server.js';
import { parseModelSpec } from './parse-model-spec.js';
import { type ProbeEndpointOptions, type ProbeResult, probeEndpoint, probeFix } from './probe-endpoint.js';
import { findProvider, type ProviderDefinition } from './provider-registry.js';

const servers: MockOpenAIServer[] = [];
const plain: Server[] = [];
const work = mkdtempSync(join(tmpdir(), 'confidant-probe-'));

afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  for (const server of plain.splice(0)) await new Promise((resolve) => server.close(resolve));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function serve(options: MockOpenAIServerOptions): Promise<MockOpenAIServer> {
  const server = await startMockOpenAIServer(options);
  servers.push(server);
  return server;
}

function provider(id: string): ProviderDefinition {
  const found = findProvider(id);
  if (!found) throw new Error(`no provider ${id}`);
  return found;
}

async function probe(
  spec: string,
  options: Partial<ProbeEndpointOptions> & { baseURL?: string } = {},
): Promise<ProbeResult | null> {
  const parsed = parseModelSpec(spec);
  const definition = provider(parsed.provider);
  return probeEndpoint({
    provider: definition,
    spec: parsed,
    baseURL: options.baseURL ?? parsed.baseURLs[0] ?? definition.defaultBaseURL,
    timeoutMs: 2_000,
    ...options,
  });
}

function failure(result: ProbeResult | null) {
  if (result === null || result.ok) throw new Error(`expected a failed probe, got ${JSON.stringify(result)}`);
  return result;
}

describe('probeEndpoint on OpenAI-compatible servers', () => {
  it('finds a listed model with one GET /models and no generation', async () => {
    const server = await serve({ models: ['Qwen/Qwen3-4B'] });
    expect(await probe(`vllm:Qwen/Qwen3-4B@${server.baseURL}`)).toEqual({ ok: true, checked: 'model-list' });
    expect(server.modelListings).toBe(1);
    expect(server.count).toBe(0);
  });

  it('rejects a model vLLM does not serve and names the ids it does', async () => {
    const server = await serve({ models: ['Qwen/Qwen3-4B', 'Qwen/Qwen3-8B'] });
    const spec = `vllm:qwen3-4b@${server.baseURL}`;
    const result = failure(await probe(spec));
    expect(result.cause).toBe('unknown-model');
    expect(result.offeredModels).toEqual(['Qwen/Qwen3-4B', 'Qwen/Qwen3-8B']);
    expect(result.detail).toContain('does not serve "qwen3-4b"');
    const fix = probeFix({
      failure: result,
      provider: provider('vllm'),
      spec: parseModelSpec(spec),
      baseURL: undefined,
    });
    expect(fix).toBe('use a model id the server offers: Qwen/Qwen3-4B, Qwen/Qwen3-8B');
    expect(server.count).toBe(0);
  });

  it('matches an Ollama name without a tag to name:latest', async () => {
    const server = await serve({ models: ['qwen3:latest', 'llama3.2:1b'] });
    expect(await probe(`ollama:qwen3@${server.baseURL}`)).toMatchObject({ ok: true });
    expect(failure(await probe(`ollama:llama3.2@${server.baseURL}`)).cause).toBe('unknown-model');
  });

  it('confirms an id a generic server does not list with a 1-token generation', async () => {
    const server = await serve({ models: ['served-name'] });
    const result = await probe(`openai-compatible:alias@${server.baseURL}`);
    expect(result).toMatchObject({ ok: true, checked: 'generation' });
    expect(result?.ok && result.note).toContain('"alias" is not among the models the server lists (served-name)');
    expect(server.count).toBe(1);
    expect(server.calls[0]?.body).toMatchObject({ model: 'alias', max_tokens: 1 });
  });

  it('reports an unlisted id the generic server refuses as unknown, with the listed ids', async () => {
    const server = await serve({ models: ['served-name'], rejectUnknownModels: true });
    const result = failure(await probe(`openai-compatible:alias@${server.baseURL}`));
    expect(result.cause).toBe('unknown-model');
    expect(result.offeredModels).toEqual(['served-name']);
    expect(result.detail).toContain('does not exist');
  });

  it('falls back to a 1-token generation when /models is not served', async () => {
    const server = await serve({ modelsRoute: { type: 'absent' } });
    expect(await probe(`vllm:m@${server.baseURL}`)).toEqual({ ok: true, checked: 'generation' });
    expect(server.count).toBe(1);
    const strict = await serve({ modelsRoute: { type: 'absent' }, models: ['other'], rejectUnknownModels: true });
    expect(failure(await probe(`vllm:m@${strict.baseURL}`))).toMatchObject({ cause: 'unknown-model', status: 404 });
  });

  it('gives the same generation verdicts on the lean and the AI SDK client', async () => {
    const strict = await serve({ models: ['served-name'], rejectUnknownModels: true });
    const absent = await serve({ modelsRoute: { type: 'absent' } });
    const verdicts = [];
    for (const client of ['lean', 'ai-sdk'] as const) {
      verdicts.push([
        await probe(`openai-compatible:alias@${strict.baseURL}`, { client }),
        await probe(`vllm:m@${absent.baseURL}`, { client }),
      ]);
    }
    expect(verdicts[0]).toEqual(verdicts[1]);
    expect(verdicts[0]?.[0]).toMatchObject({ ok: false, cause: 'unknown-model', offeredModels: ['served-name'] });
    expect(verdicts[0]?.[1]).toEqual({ ok: true, checked: 'generation' });
    expect(
      absent.calls.map((call) => call.headers['user-agent'] ?? '').map((agent) => agent.includes('ai-sdk')),
    ).toEqual([false, true]);
  });

  it('reports a rejected key as 401 without echoing the key', async () => {
    const server = await serve({ models: ['m'], apiKey: 'right-key' });
    const result = failure(await probe(`vllm:m@${server.baseURL}`, { apiKey: 'sk-wrong-secret-value' }));
    expect(result).toMatchObject({ cause: 'unauthorized', status: 401 });
    expect(JSON.stringify(result)).not.toContain('sk-wrong-secret-value');
    const fix = probeFix({
      failure: result,
      provider: provider('vllm'),
      spec: parseModelSpec('vllm:m'),
      baseURL: undefined,
    });
    expect(fix).toBe('set VLLM_API_KEY to a valid key with access to m');
    expect(await probe(`vllm:m@${server.baseURL}`, { apiKey: 'right-key' })).toMatchObject({ ok: true });
  });

  it('reports a closed port as connection refused', async () => {
    const port = await closedPort();
    const result = failure(await probe(`vllm:m@http://127.0.0.1:${port}/v1`));
    expect(result).toEqual({
      ok: false,
      cause: 'connection-refused',
      detail: `connection refused: nothing listens on 127.0.0.1:${port}`,
    });
  });

  it('gives up on a server that never answers after the timeout', async () => {
    const server = await serve({ modelsRoute: { type: 'hang' } });
    const result = failure(await probe(`vllm:m@${server.baseURL}`, { timeoutMs: 150 }));
    expect(result.cause).toBe('timeout');
    expect(result.detail).toBe(`no answer from 127.0.0.1:${server.port} within 0.2 s`);
  });

  it('reports https to a plain-HTTP server as a TLS error', async () => {
    const server = await serve({ models: ['m'] });
    const result = failure(await probe(`vllm:m@https://127.0.0.1:${server.port}/v1`));
    expect(result.cause).toBe('tls');
  });

  it('reports an unknown host as a DNS failure', async () => {
    const unknownHost: typeof fetch = async () => {
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('getaddrinfo ENOTFOUND gpu-box'), { code: 'ENOTFOUND' }),
      });
    };
    const result = failure(await probe('vllm:m@http://gpu-box:8000/v1', { fetch: unknownHost }));
    expect(result).toMatchObject({ cause: 'dns', detail: 'DNS lookup of gpu-box failed (unknown host)' });
  });

  it('accepts an embedder on a server without a model list, without generating', async () => {
    const server = await serve({ modelsRoute: { type: 'absent' } });
    const result = await probe(`openai-compatible:emb@${server.baseURL}`, { purpose: 'embedding' });
    expect(result).toMatchObject({ ok: true, checked: 'reachable' });
    expect(server.count).toBe(0);
  });
});

/** A stand-in for a hosted API: answers by path, records the headers it saw. */
async function hostedApi(routes: Record<string, { status: number; body: object }>) {
  const seen: Array<{ path: string; headers: Record<string, string | string[] | undefined> }> = [];
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    seen.push({ path, headers: request.headers });
    const route = routes[path] ?? { status: 404, body: { error: { message: `no ${path}` } } };
    response.writeHead(route.status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(route.body));
  });
  plain.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return { baseURL: `http://127.0.0.1:${address.port}/v1`, seen };
}

describe('probeEndpoint without a fetch (the lean node:http client)', () => {
  it('follows redirects as fetch does, dropping the key only when one leaves the origin', async () => {
    const target = await hostedApi({ '/v1/models': { status: 200, body: { data: [{ id: 'm' }] } } });
    const seen: Array<{ path: string; authorization: string | undefined }> = [];
    const server = createServer((request, response) => {
      const path = request.url ?? '/';
      seen.push({ path, authorization: request.headers.authorization });
      const location = path === '/v1/models' ? '/moved/v1/models' : `${target.baseURL}/models`;
      response.writeHead(path === '/v1/models' ? 307 : 308, { location });
      response.end();
    });
    plain.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no address');
    const result = await probe(`openai-compatible:m@http://127.0.0.1:${address.port}/v1`, { apiKey: 'sk-probe' });
    expect(result).toEqual({ ok: true, checked: 'model-list' });
    expect(seen).toEqual([
      { path: '/v1/models', authorization: 'Bearer sk-probe' },
      { path: '/moved/v1/models', authorization: 'Bearer sk-probe' },
    ]);
    expect(target.seen.map((request) => [request.path, request.headers.authorization])).toEqual([
      ['/v1/models', undefined],
    ]);
  });
});

describe('probeEndpoint on hosted APIs', () => {
  it('looks up an Anthropic model by id with the key in a header', async () => {
    const api = await hostedApi({ '/v1/models/claude-sonnet-4-5': { status: 200, body: { id: 'claude-sonnet-4-5' } } });
    const result = await probe('anthropic:claude-sonnet-4-5', { baseURL: api.baseURL, apiKey: 'sk-ant-secret' });
    expect(result).toEqual({ ok: true, checked: 'model-lookup' });
    expect(api.seen[0]?.headers['x-api-key']).toBe('sk-ant-secret');
    expect(api.seen[0]?.path).not.toContain('secret');
  });

  it('offers the ids Anthropic has when the model is unknown', async () => {
    const api = await hostedApi({
      '/v1/models?limit=1000': {
        status: 200,
        body: { data: [{ id: 'claude-opus-4-1' }, { id: 'claude-sonnet-4-5' }] },
      },
    });
    const result = failure(await probe('anthropic:claude-sonnet-9', { baseURL: api.baseURL, apiKey: 'k' }));
    expect(result.cause).toBe('unknown-model');
    expect(result.offeredModels).toEqual(['claude-opus-4-1', 'claude-sonnet-4-5']);
    const fix = probeFix({
      failure: result,
      provider: provider('anthropic'),
      spec: parseModelSpec('anthropic:claude-sonnet-9'),
      baseURL: undefined,
    });
    expect(fix).toBe('use a model id the server offers: claude-sonnet-4-5, claude-opus-4-1');
  });

  it("reads Google's 400 for an invalid key as a rejected key", async () => {
    const api = await hostedApi({
      '/v1/models/gemini-2.5-flash': {
        status: 400,
        body: { error: { code: 400, message: 'API key not valid. Please pass a valid API key.' } },
      },
    });
    const result = failure(await probe('google:gemini-2.5-flash', { baseURL: api.baseURL, apiKey: 'bad' }));
    expect(result.cause).toBe('unauthorized');
    expect(api.seen[0]?.headers['x-goog-api-key']).toBe('bad');
  });
});

describe('probeEndpoint on local and scripted models', () => {
  it('checks that a llamacpp model file exists', async () => {
    const file = join(work, 'model.gguf');
    writeFileSync(file, 'gguf');
    expect(await probe(`llamacpp:${file}`)).toEqual({ ok: true, checked: 'file' });
    expect(failure(await probe(`llamacpp:${join(work, 'missing.gguf')}`)).cause).toBe('missing-file');
  });

  it('needs no probe for mock models', async () => {
    expect(await probe('mock:echo')).toBeNull();
  });
});

describe('probeEndpoint with credentials in the base URL', () => {
  it('never gets them: the spec is refused before any connection, without echoing them', async () => {
    const server = await serve({ models: ['m'] });
    const url = `http://user:s3cret-pass@127.0.0.1:${server.port}/v1`;
    await expect(probe(`vllm:m@${url}`)).rejects.toThrow(/set the environment variable VLLM_API_KEY instead/);
    await expect(probe(`vllm:m@${url}`)).rejects.not.toThrow(/s3cret-pass/);
  });
});
