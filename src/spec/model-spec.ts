/**
 * A parsed model spec string `provider:model[@baseURL[,baseURL…]]`.
 * `baseURLs` never carries credentials once parsed for storage.
 */
export type ModelSpec = { provider: string; modelId: string; baseURLs: string[] };

/** A role bound to a spec, as given by `--model role=spec` (bare `--model spec` is role `agent`). */
export type RoleBinding = { role: string; spec: string };

/** What the run header stores about a resolved model: no secrets. */
export type ModelDescription = {
  provider: string;
  modelId: string;
  endpoints: string[];
  settings: Record<string, unknown>;
};
