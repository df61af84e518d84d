import type { ProbeContext, ProbeResult, ProviderProbe } from '../probe-endpoint.js';
import { offeredModelsText } from '../probe-endpoint.js';
import { type HttpAnswer, probeGeneration, probeGet, statusProbeFailure } from './probe-http.js';

/** Options of `openAiModelsProbe`. */
export type OpenAiModelsProbeOptions = {
  /**
   * Whether the server's model list is exactly what it serves (vLLM, Ollama, OpenAI itself), so an
   * unlisted id is an error. Otherwise (generic servers, proxies) an unlisted chat model is
   * confirmed with a 1-token generation.
   */
  authoritative: (context: ProbeContext) => boolean;
  /** The id as the server lists it (e.g. OpenAI's `responses/<id>` is listed as `<id>`). */
  listedIdOf?: (modelId: string) => string;
  /** Whether `ids` contains the model (default: exact match). */
  matches?: (options: { ids: readonly string[]; id: string }) => boolean;
};

/** The ids of an OpenAI-style `{ data: [{ id }] }` listing, or `undefined` when the body is not one. */
export function listedModelIds(json: unknown): string[] | undefined {
  const data = typeof json === 'object' && json !== null ? Reflect.get(json, 'data') : undefined;
  if (!Array.isArray(data)) return undefined;
  return data
    .map((entry: unknown) => (typeof entry === 'object' && entry !== null ? Reflect.get(entry, 'id') : undefined))
    .filter((id): id is string => typeof id === 'string');
}

async function unlisted({
  context,
  ids,
  id,
  authoritative,
}: {
  context: ProbeContext;
  ids: string[];
  id: string;
  authoritative: boolean;
}): Promise<ProbeResult> {
  const offered = offeredModelsText(ids, id);
  if (authoritative) {
    return {
      ok: false,
      cause: 'unknown-model',
      detail: `the server does not serve "${id}"`,
      offeredModels: ids,
    };
  }
  const note = `"${id}" is not among the models the server lists (${offered})`;
  if (context.purpose === 'embedding') return { ok: true, checked: 'reachable', note };
  const generation = await probeGeneration(context);
  if (generation.ok) return { ...generation, note: `${note}, but it answered a 1-token request` };
  if (generation.cause === 'unknown-model' || generation.cause === 'not-found') {
    return { ...generation, cause: 'unknown-model', offeredModels: ids };
  }
  return generation;
}

function routeMissing(context: ProbeContext, answer: HttpAnswer): Promise<ProbeResult> | ProbeResult {
  // A server without the route is checked by generation; an embedder cannot be, but the server answered.
  if (context.purpose === 'chat') return probeGeneration(context);
  if (answer.status >= 500) return statusProbeFailure(answer);
  return { ok: true, checked: 'reachable', note: 'the server lists no models, so the model id was not checked' };
}

/**
 * The probe of OpenAI-compatible APIs: `GET <base>/models` with the key, then the model id is
 * looked up in the list. A server that does not serve the route (or does not answer it with a
 * list) is checked with a 1-token generation instead.
 */
export function openAiModelsProbe(options: OpenAiModelsProbeOptions): ProviderProbe {
  const matches = options.matches ?? (({ ids, id }) => ids.includes(id));
  return async (context) => {
    const { baseURL, apiKey, spec } = context;
    if (baseURL === undefined) return probeGeneration(context);
    const url = `${baseURL.replace(/\/+$/, '')}/models`;
    const got = await probeGet({
      url,
      headers: { accept: 'application/json', ...(apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` }) },
      context,
    });
    if ('failure' in got) return got.failure;
    const { answer } = got;
    if (answer.status === 401 || answer.status === 403) return statusProbeFailure(answer);
    const ids = answer.status === 200 ? listedModelIds(answer.json) : undefined;
    if (ids === undefined) return routeMissing(context, answer);
    const id = options.listedIdOf?.(spec.modelId) ?? spec.modelId;
    if (matches({ ids, id })) return { ok: true, checked: 'model-list' };
    return unlisted({ context, ids, id, authoritative: options.authoritative(context) });
  };
}

/** Ollama lists `name:tag`; a bare name means `name:latest`. */
export function matchesOllamaModel({ ids, id }: { ids: readonly string[]; id: string }): boolean {
  return ids.includes(id) || (!id.includes(':') && ids.includes(`${id}:latest`));
}
