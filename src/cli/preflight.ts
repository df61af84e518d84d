import { parseModelSpec, redactEndpoint } from '../models/parse-model-spec.js';
import { type ProbeResult, probeEndpoint, probeFix } from '../models/probe-endpoint.js';
import { findProvider, type ProviderDefinition } from '../models/provider-registry.js';
import { apiKeyFromEnv } from '../models/resolve-chat-model.js';
import { EMBEDDER_SPEC_EXAMPLES } from '../retrieval/resolve-embedder.js';
import type { PreparedRun } from '../runner/prepare-run.js';
import { MODEL_ROLES } from '../runner/role-registry.js';
import { ConfidantError, PreflightError } from '../spec/errors.js';
import type { ModelSpec, RoleBinding } from '../spec/model-spec.js';
import type { CliIo } from './cli-io.js';
import { compatibleClientOption } from './compatible-client-option.js';

/** A bound role to check: chat models are probed as such, embedding roles as embedding models. */
export type PreflightTarget = RoleBinding & { purpose: 'chat' | 'embedding' };

/** The roles of a prepared run to check (reference seats left out), each probed as its role's kind. */
export function preflightTargets(prepared: Pick<PreparedRun, 'modelBindings'>): PreflightTarget[] {
  return prepared.modelBindings.map((binding) => ({
    ...binding,
    purpose: MODEL_ROLES.find(binding.role)?.kind === 'embedding' ? 'embedding' : 'chat',
  }));
}

/** Time allowed for one probe request: long enough for a busy server, short enough to fail fast. */
export const PREFLIGHT_TIMEOUT_MS = 10_000;

const SKIP_HINT = 'skip the check with --no-preflight';

/** One distinct endpoint of one model, and every role bound to it. */
type Endpoint = {
  roles: string[];
  provider: ProviderDefinition;
  spec: ModelSpec;
  baseURL: string | undefined;
  purpose: 'chat' | 'embedding';
  apiKey: string | undefined;
};

function label({ spec, baseURL }: Pick<Endpoint, 'spec' | 'baseURL'>): string {
  return `${spec.provider}:${spec.modelId}${baseURL === undefined ? '' : ` at ${redactEndpoint(baseURL)}`}`;
}

/**
 * The distinct endpoints of `targets`. Specs the probe cannot judge (reference agents, embedders
 * outside the provider registry, unknown providers, a missing or forbidden base URL) are left to
 * model resolution, which reports them; a missing API key is a problem reported with the rest.
 */
function collectEndpoints({ targets, env }: { targets: readonly PreflightTarget[]; env: CliIo['env'] }): {
  endpoints: Endpoint[];
  problems: string[];
} {
  const byKey = new Map<string, Endpoint>();
  const problems: string[] = [];
  for (const target of targets) {
    const spec = parseModelSpec(target.spec);
    const provider = findProvider(spec.provider);
    if (provider === undefined) continue;
    if (target.purpose === 'embedding' && !Object.hasOwn(EMBEDDER_SPEC_EXAMPLES, spec.provider)) continue;
    if (provider.requiresBaseURL && spec.baseURLs.length === 0) continue;
    if (provider.acceptsBaseURL === false && spec.baseURLs.length > 0) continue;
    let apiKey: string | undefined;
    try {
      apiKey = apiKeyFromEnv({ provider, spec, env });
    } catch (error) {
      if (!ConfidantError.isInstance(error)) throw error;
      problems.push(`  ${target.role}: ${error.message}`);
      continue;
    }
    const urls = spec.baseURLs.length > 0 ? spec.baseURLs : [provider.defaultBaseURL];
    // An embedder calls its first base URL only.
    for (const baseURL of target.purpose === 'embedding' ? urls.slice(0, 1) : urls) {
      const key = [provider.id, spec.modelId, baseURL ?? '', target.purpose, apiKey ?? ''].join('\u0000');
      const existing = byKey.get(key);
      if (existing) {
        if (!existing.roles.includes(target.role)) existing.roles.push(target.role);
      } else byKey.set(key, { roles: [target.role], provider, spec, baseURL, purpose: target.purpose, apiKey });
    }
  }
  return { endpoints: [...byKey.values()], problems };
}

/**
 * The pre-flight check of `run`, `resume` and `generate`: one cheap probe of every distinct
 * endpoint of every bound role (concurrently, each with a short timeout), before any sample runs.
 * Prints one line on success (and a note per endpoint worth a remark). Throws a `PreflightError`
 * (exit 2) listing every endpoint that failed (role, endpoint without credentials, the cause in
 * words and the fix) and every missing API key, all in one message.
 */
export async function runPreflight({
  io,
  targets,
  timeoutMs = PREFLIGHT_TIMEOUT_MS,
}: {
  io: CliIo;
  targets: readonly PreflightTarget[];
  timeoutMs?: number;
}): Promise<void> {
  const { endpoints, problems } = collectEndpoints({ targets, env: io.env });
  const client = compatibleClientOption(io.env).openAiCompatibleClient;
  const results = await Promise.all(
    endpoints.map(async (endpoint) => ({
      endpoint,
      result: await probeEndpoint({
        provider: endpoint.provider,
        spec: endpoint.spec,
        baseURL: endpoint.baseURL,
        purpose: endpoint.purpose,
        timeoutMs,
        signal: io.signal,
        ...(endpoint.apiKey === undefined ? {} : { apiKey: endpoint.apiKey }),
        ...(client === undefined ? {} : { client }),
      }),
    })),
  );
  if (io.signal.aborted) throw new PreflightError('interrupted during the pre-flight check; no sample was run');
  const checked: Array<{ endpoint: Endpoint; result: ProbeResult }> = [];
  for (const { endpoint, result } of results) if (result !== null) checked.push({ endpoint, result });
  for (const { endpoint, result } of checked) {
    if (!result.ok) {
      const fix = probeFix({
        failure: result,
        provider: endpoint.provider,
        spec: endpoint.spec,
        baseURL: endpoint.baseURL,
      });
      problems.push(`  ${endpoint.roles.join(', ')}: ${label(endpoint)}: ${result.detail}; ${fix}`);
    }
  }
  if (problems.length > 0) {
    // One problem is one line; several get a line each under the heading.
    throw new PreflightError(
      problems.length === 1
        ? `pre-flight check failed, no sample was run: ${problems[0]?.trim()} (or ${SKIP_HINT})`
        : `pre-flight check failed, no sample was run:\n${problems.join('\n')}\nFix these and run the command again, or ${SKIP_HINT}.`,
    );
  }
  for (const { endpoint, result } of checked) {
    if (result.ok && result.note)
      io.stderr(`pre-flight note: ${endpoint.roles.join(', ')}: ${label(endpoint)}: ${result.note}\n`);
  }
  if (checked.length > 0) {
    const roles = [...new Set(checked.flatMap(({ endpoint }) => endpoint.roles))];
    io.stderr(
      `pre-flight: ${checked.length} model endpoint${checked.length === 1 ? '' : 's'} ready (${roles.join(', ')})\n`,
    );
  }
}
