import type { ChatModel } from '../spec/chat-model.js';
import type { ModelSpec } from '../spec/model-spec.js';
import { redactEndpoint } from './parse-model-spec.js';
import type { OpenAiCompatibleClient, ProviderDefinition } from './provider-registry.js';

/** Why an endpoint cannot be used. */
export type ProbeCause =
  | 'connection-refused'
  | 'dns'
  | 'timeout'
  | 'tls'
  | 'network'
  | 'unauthorized'
  | 'forbidden'
  | 'unknown-model'
  | 'not-found'
  | 'server-error'
  | 'bad-response'
  | 'missing-file';

/** What one probe found. `detail` is a short phrase for the operator (never holds a key). */
export type ProbeResult =
  | {
      ok: true;
      /** How the endpoint was checked. */
      checked: 'model-list' | 'model-lookup' | 'generation' | 'reachable' | 'file';
      /** Worth telling the operator although the endpoint works (e.g. an unlisted model that answered). */
      note?: string;
    }
  | {
      ok: false;
      cause: ProbeCause;
      detail: string;
      status?: number;
      /** The model ids the server offers, when it listed them (for `unknown-model`). */
      offeredModels?: string[];
    };

/** A failed probe. */
export type ProbeFailure = Extract<ProbeResult, { ok: false }>;

/** What a provider's probe receives: one endpoint of one model. */
export type ProbeContext = {
  spec: ModelSpec;
  /** The endpoint to probe (the spec's or the provider's default); `undefined` for providers without one. */
  baseURL: string | undefined;
  apiKey?: string;
  /**
   * Replaces the probe's HTTP client (tests, proxies). Absent: the lean `node:http` transport the
   * self-hosted model path uses, so a probe does not load Node's built-in `fetch` (undici).
   */
  fetch?: typeof fetch;
  /** Time allowed for one HTTP request of the probe (a 1-token generation gets three times as long). */
  timeoutMs: number;
  /** A chat model is checked by generation when its server lists no models; an embedder is not. */
  purpose: 'chat' | 'embedding';
  signal?: AbortSignal;
  /** The provider's own adapter for this endpoint, for a 1-token generation. */
  createChatModel(): ChatModel | Promise<ChatModel>;
};

/**
 * How a provider checks, cheaply and before a run, that a model endpoint answers, accepts the
 * key and serves the model. Declared by each provider in its registry entry (no switch on names).
 */
export type ProviderProbe = (context: ProbeContext) => Promise<ProbeResult>;

/** Options of `probeEndpoint`. */
export type ProbeEndpointOptions = {
  provider: ProviderDefinition;
  spec: ModelSpec;
  baseURL: string | undefined;
  apiKey?: string;
  purpose?: 'chat' | 'embedding';
  /** Default: the lean HTTP/1.1 transport (see `ProbeContext.fetch`). */
  fetch?: typeof fetch;
  /** Per request of the probe (default 10 s). */
  timeoutMs?: number;
  /** The client of a 1-token generation on an OpenAI-compatible server (see `ProviderCreateOptions.client`). */
  client?: OpenAiCompatibleClient;
  signal?: AbortSignal;
};

/**
 * Probes one endpoint of one model with the provider's declared probe. Returns `null` when the
 * provider declares none (scripted models). Never throws for an unreachable or refusing server:
 * that is a failed `ProbeResult`. The API key is removed from every detail it returns.
 */
export async function probeEndpoint(options: ProbeEndpointOptions): Promise<ProbeResult | null> {
  const { provider, spec, baseURL, apiKey } = options;
  if (provider.probe === undefined) return null;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const result = await provider.probe({
    spec,
    baseURL,
    ...(apiKey === undefined ? {} : { apiKey }),
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    timeoutMs,
    purpose: options.purpose ?? 'chat',
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    createChatModel: () =>
      provider.create({
        spec: { ...spec, baseURLs: baseURL === undefined ? [] : [baseURL] },
        ...(apiKey === undefined ? {} : { apiKey }),
        ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
        ...(options.client === undefined ? {} : { client: options.client }),
        timeoutMs,
      }),
  });
  if (result.ok) return result;
  return { ...result, detail: scrubSecrets({ text: result.detail, apiKey, baseURL }) };
}

/** Removes the key and the base URL's password from a message. */
function scrubSecrets({ text, apiKey, baseURL }: { text: string; apiKey?: string; baseURL?: string }): string {
  const secrets: string[] = apiKey ? [apiKey] : [];
  if (baseURL !== undefined) {
    try {
      const url = new URL(baseURL);
      for (const part of [url.password, decodeURIComponent(url.password)]) if (part) secrets.push(part);
    } catch {}
  }
  let result = text;
  for (const secret of secrets.sort((a, b) => b.length - a.length)) result = result.split(secret).join('[redacted]');
  return result;
}

const CAUSE_WORDS: Record<ProbeCause, string> = {
  'connection-refused': 'connection refused',
  dns: 'DNS lookup failed',
  timeout: 'no answer in time',
  tls: 'TLS error',
  network: 'network error',
  unauthorized: 'the API key was rejected (401)',
  forbidden: 'access denied (403)',
  'unknown-model': 'unknown model',
  'not-found': 'not found (404)',
  'server-error': 'server error',
  'bad-response': 'unexpected answer',
  'missing-file': 'model file not found',
};

/** A short name of a cause, for grouping and for the start of a message. */
export function probeCauseWords(cause: ProbeCause): string {
  return CAUSE_WORDS[cause];
}

/** The most similar ids first (shared prefix, then containment), at most `limit`. */
function closestIds(ids: readonly string[], wanted: string, limit: number): string[] {
  const lower = wanted.toLowerCase();
  const score = (id: string) => {
    const candidate = id.toLowerCase();
    let prefix = 0;
    while (prefix < candidate.length && candidate[prefix] === lower[prefix]) prefix++;
    return prefix * 2 + (candidate.includes(lower) || lower.includes(candidate) ? 100 : 0);
  };
  return [...ids]
    .map((id, index) => ({ id, index, score: score(id) }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, limit)
    .map((entry) => entry.id);
}

/** The offered ids, most similar first, as a readable list. */
export function offeredModelsText(ids: readonly string[], wanted: string, limit = 8): string {
  if (ids.length === 0) return 'the server lists no models';
  const shown = closestIds(ids, wanted, limit);
  const more = ids.length - shown.length;
  return `${shown.join(', ')}${more > 0 ? ` (and ${more} more)` : ''}`;
}

type FixContext = { failure: ProbeFailure; provider: ProviderDefinition; spec: ModelSpec; where: string };

const keyFix = ({ provider, spec }: FixContext) => {
  const keys = provider.apiKeyEnv ?? [];
  return keys.length > 0
    ? `set ${keys.join(' or ')} to a valid key with access to ${spec.modelId}`
    : 'give the server a valid key';
};

const FIXES: Record<ProbeCause, (context: FixContext) => string> = {
  'connection-refused': ({ where }) => `start the model server${where}, or check the host and port in the URL`,
  dns: () => 'check the host name in the URL',
  timeout: ({ where }) => `check that the server${where} is up and reachable from here (firewall, VPN, overload)`,
  tls: () => 'check http:// versus https:// in the URL and the server certificate',
  network: () => 'check the network path to the server and the URL',
  unauthorized: keyFix,
  forbidden: keyFix,
  'unknown-model': ({ failure, spec }) => {
    const offered = failure.offeredModels ?? [];
    return offered.length > 0
      ? `use a model id the server offers: ${offeredModelsText(offered, spec.modelId)}`
      : `check the model id "${spec.modelId}"`;
  },
  'not-found': () => 'check the base URL (OpenAI-compatible servers usually end in /v1)',
  'server-error': ({ where }) => `check the server${where} and its log`,
  'bad-response': ({ where }) => `check that the URL${where} is an OpenAI-compatible API`,
  'missing-file': () => 'check the path of the model file',
};

/**
 * What the operator should do about a failed probe, in one clause: start the server, check the
 * URL, set the named key variable, or pick one of the offered model ids.
 */
export function probeFix({
  failure,
  provider,
  spec,
  baseURL,
}: {
  failure: ProbeFailure;
  provider: ProviderDefinition;
  spec: ModelSpec;
  baseURL: string | undefined;
}): string {
  const where = baseURL === undefined ? '' : ` at ${redactEndpoint(baseURL)}`;
  return FIXES[failure.cause]({ failure, provider, spec, where });
}
