import { ConfidantError } from '../../spec/errors.js';
import { describeNetworkFailure, type NetworkFailureKind } from '../network-failure.js';
import { sharedNodeHttpTransport } from '../node-http-transport.js';
import type { ProbeCause, ProbeContext, ProbeFailure, ProbeResult } from '../probe-endpoint.js';

/** An HTTP answer a probe got: its status and body (`json` is `undefined` when it is not JSON). */
export type HttpAnswer = { status: number; json: unknown; text: string };

const SNIPPET = 160;
/** How many GET timeouts a 1-token generation may take. */
const GENERATION_TIMEOUT_FACTOR = 3;

/** The error message in an API error body (`{error: {message}}`, `{message}`, `{detail}`) or its first characters. */
export function errorSnippet(answer: Pick<HttpAnswer, 'json' | 'text'>): string {
  const json = answer.json;
  const field = (value: unknown, name: string) =>
    typeof value === 'object' && value !== null ? Reflect.get(value, name) : undefined;
  const candidates = [
    field(field(json, 'error'), 'message'),
    field(json, 'error'),
    field(json, 'message'),
    field(json, 'detail'),
  ];
  const message = candidates.find((value): value is string => typeof value === 'string' && value.trim() !== '');
  const text = (message ?? answer.text).replace(/\s+/g, ' ').trim();
  return text.length > SNIPPET ? `${text.slice(0, SNIPPET)}…` : text;
}

/** A signal that fires after `timeoutMs` or when `signal` does. */
function deadline(context: Pick<ProbeContext, 'timeoutMs' | 'signal'>): AbortSignal {
  const timeout = AbortSignal.timeout(context.timeoutMs);
  return context.signal === undefined ? timeout : AbortSignal.any([timeout, context.signal]);
}

/** A failure below HTTP (refused, DNS, TLS, timeout) as a probe failure, or `undefined` for anything else. */
export function networkProbeFailure({
  error,
  url,
  timeoutMs,
}: {
  error: unknown;
  url: string;
  timeoutMs: number;
}): ProbeFailure | undefined {
  const failure = describeNetworkFailure(error);
  if (failure === undefined) return undefined;
  let host = url;
  try {
    host = new URL(url).host;
  } catch {}
  return {
    ok: false,
    cause: failure.kind,
    detail: networkDetail({ kind: failure.kind, words: failure.words, host, timeoutMs }),
  };
}

function networkDetail({
  kind,
  words,
  host,
  timeoutMs,
}: {
  kind: NetworkFailureKind;
  words: string;
  host: string;
  timeoutMs: number;
}): string {
  if (kind === 'connection-refused') return `connection refused: nothing listens on ${host}`;
  if (kind === 'dns') return `DNS lookup of ${host.replace(/:\d+$/, '')} failed (unknown host)`;
  if (kind === 'timeout') return `no answer from ${host} within ${Math.round(timeoutMs / 100) / 10} s`;
  return `${words} talking to ${host}`;
}

/** The cause an HTTP error status stands for; `text` helps tell an unknown model from a wrong URL. */
export function causeOfStatus(status: number, text: string): ProbeCause {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if ((status === 404 || status === 400) && /model/i.test(text)) return 'unknown-model';
  if (status === 404) return 'not-found';
  if (status >= 500) return 'server-error';
  return 'bad-response';
}

/** A failed probe for an HTTP error answer. */
export function statusProbeFailure(answer: HttpAnswer): ProbeFailure {
  const snippet = errorSnippet(answer);
  return {
    ok: false,
    cause: causeOfStatus(answer.status, snippet),
    status: answer.status,
    detail: `HTTP ${answer.status}${snippet ? `: ${snippet}` : ''}`,
  };
}

/** Redirect statuses `fetch` follows, and how many hops it takes at most. */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 20;
const UTF8 = new TextDecoder();

/**
 * One GET through the context's `fetch` when it has one, else through the lean HTTP/1.1
 * transport, which answers as `fetch` would here: redirects followed (the `authorization` header
 * dropped when one leaves the origin), the body decoded as UTF-8 without its BOM, one deadline
 * for the whole chain.
 */
async function sendGet({
  url,
  headers,
  context,
}: {
  url: URL;
  headers: Record<string, string>;
  context: Pick<ProbeContext, 'fetch' | 'timeoutMs' | 'signal'>;
}): Promise<{ status: number; text: string }> {
  const signal = deadline(context);
  if (context.fetch !== undefined) {
    const response = await context.fetch(url, { method: 'GET', headers, signal });
    return { status: response.status, text: await response.text() };
  }
  let target = url;
  let sent = headers;
  for (let hop = 0; ; hop++) {
    const answer = await sharedNodeHttpTransport().send({ url: target, method: 'GET', headers: sent, signal });
    const location = answer.headers.location;
    if (!REDIRECTS.has(answer.status) || location === undefined || hop === MAX_REDIRECTS) {
      return { status: answer.status, text: UTF8.decode(answer.body) };
    }
    const next = new URL(location, target);
    if (next.origin !== target.origin) {
      sent = Object.fromEntries(Object.entries(sent).filter(([name]) => name.toLowerCase() !== 'authorization'));
    }
    target = next;
  }
}

/** `GET url` with a deadline; network failures come back as a probe failure, never thrown. */
export async function probeGet({
  url,
  headers,
  context,
}: {
  url: string;
  headers: Record<string, string>;
  context: Pick<ProbeContext, 'fetch' | 'timeoutMs' | 'signal'>;
}): Promise<{ answer: HttpAnswer } | { failure: ProbeFailure }> {
  // Credentials in the URL (`http://user:pass@host`) become a Basic header: fetch refuses them in
  // URLs, and they must not reach a message.
  const target = new URL(url);
  const sent = { ...headers };
  if ((target.username !== '' || target.password !== '') && sent.authorization === undefined) {
    const user = decodeURIComponent(target.username);
    const password = decodeURIComponent(target.password);
    sent.authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  }
  target.username = '';
  target.password = '';
  try {
    const { status, text } = await sendGet({ url: target, headers: sent, context });
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { answer: { status, json, text } };
  } catch (error) {
    const failure = networkProbeFailure({ error, url: target.href, timeoutMs: context.timeoutMs });
    if (failure) return { failure };
    const message = error instanceof Error ? error.message : String(error);
    return { failure: { ok: false, cause: 'network', detail: `request to ${target.host} failed: ${message}` } };
  }
}

/**
 * Asks the model for one token through the provider's own adapter: the fallback when a server
 * lists no models. Provider errors map by status (401, 404 "model does not exist", …) or by
 * their network cause.
 */
export async function probeGeneration(context: ProbeContext): Promise<ProbeResult> {
  // A first generation may load the model (Ollama, LM Studio): it gets longer than a GET.
  const generationTimeoutMs = context.timeoutMs * GENERATION_TIMEOUT_FACTOR;
  const url = context.baseURL ?? `${context.spec.provider}:${context.spec.modelId}`;
  try {
    const model = await context.createChatModel();
    await model.doGenerate({
      messages: [{ role: 'user', content: 'Reply with OK.' }],
      settings: { maxOutputTokens: 1, temperature: 0 },
      abortSignal: deadline({ ...context, timeoutMs: generationTimeoutMs }),
    });
    return { ok: true, checked: 'generation' };
  } catch (error) {
    const network = networkProbeFailure({ error, url, timeoutMs: generationTimeoutMs });
    if (network) return network;
    const status =
      ConfidantError.isInstance(error) && typeof Reflect.get(error, 'status') === 'number'
        ? (Reflect.get(error, 'status') as number)
        : undefined;
    const message = error instanceof Error ? error.message : String(error);
    if (status !== undefined) {
      // The server's own words (e.g. vLLM's "The model `x` does not exist.") are in the SDK error's body.
      const body = responseBodyOf(error);
      let json: unknown;
      try {
        json = body === undefined ? undefined : JSON.parse(body);
      } catch {
        json = undefined;
      }
      const failure = statusProbeFailure({ status, json, text: body ?? message });
      return { ...failure, detail: `a 1-token generation got ${failure.detail}` };
    }
    return { ok: false, cause: 'bad-response', detail: `a 1-token generation failed: ${message}` };
  }
}

/** The HTTP response body an AI SDK error carries somewhere in its cause chain. */
function responseBodyOf(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && typeof current === 'object' && current !== null; depth++) {
    const body = Reflect.get(current, 'responseBody');
    if (typeof body === 'string' && body !== '') return body;
    current = Reflect.get(current, 'cause');
  }
  return undefined;
}
