import { ModelSpecError } from '../spec/errors.js';
import type { ModelRoleDefinition } from '../spec/model-role.js';
import type { RoleBinding } from '../spec/model-spec.js';

/**
 * The roles a run can bind, looked up by name: built from the definitions the layers that use
 * them contribute (see `ModelRoleDefinition`), so models/ never lists roles itself. A name
 * matches a definition by its `id` or, for a family such as `agent-<id>`, by its `pattern`.
 */
export type RoleCatalog = {
  readonly definitions: readonly ModelRoleDefinition[];
  /** The definition `role` belongs to, if any. */
  find(role: string): ModelRoleDefinition | undefined;
  isKnown(role: string): boolean;
  /** The roles tried, in order, when `role` itself is unbound (not including itself; unknown roles: none). */
  fallbacks(role: string): string[];
  isRepeatable(role: string): boolean;
  /** True for the roles that seat an agent under test. */
  isSeat(role: string): boolean;
  /** The display names of every role, in definition order (`agent`, `agent-<id>`, …). */
  names(): string[];
};

/** Builds a catalog; two definitions with the same `id` are a programming error. */
export function createRoleCatalog(definitions: readonly ModelRoleDefinition[]): RoleCatalog {
  const byId = new Map<string, ModelRoleDefinition>();
  for (const definition of definitions) {
    if (byId.has(definition.id)) throw new Error(`model role "${definition.id}" is defined twice`);
    byId.set(definition.id, definition);
  }
  const families = definitions.filter((definition) => definition.pattern !== undefined);
  const find = (role: string): ModelRoleDefinition | undefined => {
    const named = byId.get(role);
    if (named !== undefined && named.pattern === undefined) return named;
    return families.find((definition) => definition.pattern?.test(role));
  };
  return {
    definitions,
    find,
    isKnown: (role) => find(role) !== undefined,
    fallbacks: (role) => [...(find(role)?.fallbacks ?? [])],
    isRepeatable: (role) => find(role)?.repeatable === true,
    isSeat: (role) => find(role)?.seat === true,
    names: () => definitions.map((definition) => definition.id),
  };
}

/**
 * Refuses a role bound more than once unless its definition is repeatable (judge ensembles,
 * seat grids), naming every spec given for it. Unknown roles are left to the caller.
 */
export function checkRepeatedRoles({
  roles,
  bindings,
}: {
  roles: RoleCatalog;
  bindings: readonly RoleBinding[];
}): void {
  const specsByRole = new Map<string, string[]>();
  for (const { role, spec } of bindings) specsByRole.set(role, [...(specsByRole.get(role) ?? []), spec]);
  for (const [role, specs] of specsByRole) {
    if (specs.length < 2 || !roles.isKnown(role) || roles.isRepeatable(role)) continue;
    const repeatable = roles.definitions.filter((definition) => definition.repeatable).map(({ id }) => id);
    throw new ModelSpecError(
      `role "${role}" is bound ${specs.length} times (${specs.join(', ')}); only ${repeatable.join(', ')} may be bound several times: keep a single --model ${role}=<spec>`,
    );
  }
}
