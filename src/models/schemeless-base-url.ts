import type { ModelSpec } from '../spec/model-spec.js';

/** `host:port[/path]`, `localhost[/path]` or an IPv4 address, at the end of a model id after `@`. */
const HOST_AFTER_AT =
  /@((?:localhost|\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:]+\]|[a-z0-9-]+(?:\.[a-z0-9-]+)*:\d{1,5})(?::\d{1,5})?(?:\/\S*)?)$/i;

/**
 * A base URL written without `http://` or `https://` (e.g. `vllm:Qwen/Qwen3-4B@127.0.0.1:8000/v1`)
 * is not a base URL to the spec grammar: it stays part of the model id. Returns what the user
 * probably meant (the id and the URL with `http://`), or `undefined` when the id does not end in
 * something that looks like a host.
 */
export function schemelessBaseURL(spec: ModelSpec): { modelId: string; baseURL: string } | undefined {
  if (spec.baseURLs.length > 0) return undefined;
  const match = HOST_AFTER_AT.exec(spec.modelId);
  if (match === null || match[1] === undefined) return undefined;
  return { modelId: spec.modelId.slice(0, match.index), baseURL: `http://${match[1]}` };
}
