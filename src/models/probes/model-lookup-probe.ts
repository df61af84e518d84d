import type { ProbeCause, ProviderProbe } from '../probe-endpoint.js';
import { errorSnippet, type HttpAnswer, probeGet, statusProbeFailure } from './probe-http.js';

/** Options of `modelLookupProbe`: how one hosted API names, authorises and lists its models. */
export type ModelLookupProbeOptions = {
  /** Headers carrying the key (never the URL, so it cannot reach a log line). */
  headers: (apiKey: string | undefined) => Record<string, string>;
  /** `<base>/<path>` of one model, e.g. `models/<id>`. */
  modelPath: (modelId: string) => string;
  /** `<base>/<path>` of the model list. */
  listPath: string;
  /** The model ids in a list answer. */
  listIds: (json: unknown) => string[];
  /** A cause the API signals in its own way (e.g. Google's 400 for an invalid key). */
  causeOf?: (answer: HttpAnswer) => ProbeCause | undefined;
};

/**
 * The probe of hosted APIs that can look up one model (Anthropic, Google): `GET <base>/models/<id>`
 * with the key, which also resolves aliases. On "unknown model" the list is fetched so the
 * message can offer the ids that exist.
 */
export function modelLookupProbe(options: ModelLookupProbeOptions): ProviderProbe {
  return async (context) => {
    const base = (context.baseURL ?? '').replace(/\/+$/, '');
    const headers = { accept: 'application/json', ...options.headers(context.apiKey) };
    const got = await probeGet({ url: `${base}/${options.modelPath(context.spec.modelId)}`, headers, context });
    if ('failure' in got) return got.failure;
    const { answer } = got;
    if (answer.status === 200) return { ok: true, checked: 'model-lookup' };
    const failure = statusProbeFailure(answer);
    const cause = options.causeOf?.(answer) ?? (answer.status === 404 ? 'unknown-model' : failure.cause);
    if (cause !== 'unknown-model') return { ...failure, cause };
    const list = await probeGet({ url: `${base}/${options.listPath}`, headers, context });
    const ids = 'answer' in list && list.answer.status === 200 ? options.listIds(list.answer.json) : [];
    const snippet = errorSnippet(answer);
    return {
      ok: false,
      cause,
      status: answer.status,
      detail: `the API has no model "${context.spec.modelId}"${snippet ? ` (${snippet})` : ''}`,
      offeredModels: ids,
    };
  };
}
