import { z } from 'zod';
import type { GenerateSettings } from '../spec/chat-model.js';
import { MissingApiKeyError, ModelSpecError } from '../spec/errors.js';
import type { ModelSpec, RoleBinding } from '../spec/model-spec.js';
import { parseModelSpec } from './parse-model-spec.js';
import { checkBudgetPrices, type PriceOverrides } from './price-table.js';
import { findProvider, type ProviderDefinition } from './provider-registry.js';
import { apiKeyFromEnv, checkModelSpec } from './resolve-chat-model.js';
import { checkRepeatedRoles, type RoleCatalog } from './role-catalog.js';

const settingsSchema = z
  .object({
    temperature: z.coerce.number().min(0),
    topP: z.coerce.number().gt(0).max(1),
    maxOutputTokens: z.coerce.number().int().positive(),
    seed: z.coerce.number().int(),
    stop: z.union([z.string().transform((stop) => [stop]), z.array(z.string())]),
  })
  .partial()
  .strict();

/** Options of {@link checkModelRoles}: the parts of `ResolveModelRolesOptions` that can be checked offline. */
export type CheckModelRolesOptions = {
  /** The roles a run can bind, e.g. runner's `MODEL_ROLES`. */
  roles: RoleCatalog;
  /** `--model role=spec` bindings, chat and embedding roles alike. */
  bindings: readonly RoleBinding[];
  /** `--model-setting role.key=value`, by role. */
  settings?: Record<string, Record<string, unknown>>;
  env: Record<string, string | undefined>;
  prices?: PriceOverrides;
  maxCostUsd?: number;
  registry?: readonly ProviderDefinition[];
  /**
   * Checks the spec of an embedding role (retrieval's `checkEmbedderSpec`, which lives above
   * models/); `apiKey` reads its provider's key from `env`. Without it embedding specs are only parsed.
   */
  checkEmbeddingSpec?: (options: { spec: ModelSpec; apiKey: () => string | undefined }) => void;
  /**
   * Receives each binding's missing required API key instead of the first one being thrown (the
   * key is the last thing checked, so nothing else goes unchecked); `run --dry-run` prints the
   * plan before it reports them.
   */
  onMissingKey?: (error: MissingApiKeyError) => void;
};

/**
 * Checks every model binding of a run without creating an adapter or opening a cache: roles are
 * known and not repeated where they may not be, settings are valid, a cost budget has prices,
 * and every spec names a known provider with the base URL and API key it needs. `run --dry-run`
 * calls it so that it refuses what the run would; `resolveModelRoles` calls it first. Returns the
 * parsed settings by role. Every problem is a user error naming the fix.
 */
export function checkModelRoles(options: CheckModelRolesOptions): Record<string, GenerateSettings> {
  const { roles } = options;
  for (const { role } of options.bindings) {
    if (!roles.isKnown(role)) throw unknownRole({ roles, role, where: `--model ${role}=…` });
  }
  checkRepeatedRoles({ roles, bindings: options.bindings });
  const roleSettings: Record<string, GenerateSettings> = {};
  for (const [role, raw] of Object.entries(options.settings ?? {})) {
    if (!roles.isKnown(role)) throw unknownRole({ roles, role, where: `--model-setting ${role}.…` });
    roleSettings[role] = parseRoleSettings(role, raw);
  }
  checkBudgetPrices({
    bindings: options.bindings,
    prices: options.prices,
    maxCostUsd: options.maxCostUsd,
    ...(options.registry ? { registry: options.registry } : {}),
  });
  const registry = options.registry === undefined ? {} : { registry: options.registry };
  const check = (binding: RoleBinding) => {
    if (roles.find(binding.role)?.kind !== 'embedding') {
      checkModelSpec({ spec: binding.spec, env: options.env, ...registry });
      return;
    }
    const spec = parseModelSpec(binding.spec);
    options.checkEmbeddingSpec?.({
      spec,
      apiKey: () => {
        const provider = findProvider(spec.provider, options.registry);
        return provider === undefined ? undefined : apiKeyFromEnv({ provider, spec, env: options.env });
      },
    });
  };
  for (const binding of options.bindings) {
    try {
      check(binding);
    } catch (error) {
      if (!(error instanceof MissingApiKeyError) || options.onMissingKey === undefined) throw error;
      options.onMissingKey(error);
    }
  }
  return roleSettings;
}

function parseRoleSettings(role: string, raw: Record<string, unknown>): GenerateSettings {
  const parsed = settingsSchema.safeParse(raw);
  if (parsed.success) return definedOnly(parsed.data);
  const problems = parsed.error.issues
    .map((issue) => `${issue.path.length ? `${role}.${issue.path.join('.')}` : role}: ${issue.message}`)
    .join('; ');
  throw new ModelSpecError(
    `invalid --model-setting for role "${role}": ${problems}; known settings: temperature, topP, maxOutputTokens, seed, stop`,
  );
}

function definedOnly(settings: GenerateSettings): GenerateSettings {
  return Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined));
}

/** The error for a role the catalog does not know, listing the known ones. */
function unknownRole({ roles, role, where }: { roles: RoleCatalog; role: string; where: string }): ModelSpecError {
  return new ModelSpecError(`unknown role "${role}" in ${where}; known roles: ${roles.names().join(', ')}`);
}
