import { parseModelSpec } from '../models/parse-model-spec.js';
import { findProvider } from '../models/provider-registry.js';
import { schemelessBaseURL } from '../models/schemeless-base-url.js';
import { CHAIN_ROLE_IDS } from '../orchestration/chain-roles.js';
import { fidelityOverrides, type PreparedRun } from '../runner/prepare-run.js';
import { MODEL_ROLES } from '../runner/role-registry.js';
import type { RoleBinding } from '../spec/model-spec.js';
import type { RunPlan } from '../spec/run-plan.js';
import { suiteJudges } from '../suites/suite.js';

/** Roles the defenses (role chains, 1-2-3 check) may call; the suite does not list them. */
const DEFENSE_ROLES: ReadonlySet<string> = new Set(CHAIN_ROLE_IDS);

/**
 * Model specs whose base URL lacks `http://` (so it was read as part of the model id): one
 * warning each, with the spec the user probably meant.
 */
export function modelSpecWarnings(bindings: readonly RoleBinding[]): string[] {
  const warnings: string[] = [];
  for (const binding of bindings) {
    const spec = parseModelSpec(binding.spec);
    const meant = schemelessBaseURL(spec);
    if (meant === undefined) continue;
    const fallback = findProvider(spec.provider)?.defaultBaseURL;
    warnings.push(
      `--model ${binding.role}=${binding.spec}: "${meant.baseURL.slice('http://'.length)}" has no http:// or https://, so it was read as part of the model id "${spec.modelId}"${fallback ? ` and the default base URL ${fallback} is used` : ''}; did you mean ${spec.provider}:${meant.modelId}@${meant.baseURL}?`,
    );
  }
  return warnings;
}

/**
 * Things in a valid plan that are probably not what the user meant: a judge model on a plan
 * without an LLM judge, a role the suite never calls, a defense given twice, a base URL without
 * its scheme. Each is one line; none stops the run.
 */
export function planWarnings({ plan, prepared }: { plan: RunPlan; prepared: PreparedRun }): string[] {
  const { suite, options } = prepared;
  const warnings = [...(prepared.dataset.warnings ?? []), ...modelSpecWarnings(plan.models)];
  const overrides = fidelityOverrides({ suite, plan });
  if (overrides.length > 0) {
    warnings.push(
      `--fidelity upstream, but ${overrides.join(', ')} is given explicitly and wins, so this ${suite.id} run is not scored exactly as upstream`,
    );
  }
  const { required, optional } = suite.roles(options);
  const used = new Set([...required, ...optional]);
  const reachable = new Set([...used].flatMap((role) => [role, ...MODEL_ROLES.fallbacks(role)]));
  const bound = [...new Set(plan.models.map((binding) => binding.role))];
  if (
    bound.includes('judge') &&
    suiteJudges({ scorers: suite.scorers, options }).length === 0 &&
    !required.includes('judge')
  ) {
    const summarizer = used.has('summarizer') && !bound.includes('summarizer');
    warnings.push(
      `--model judge=… is given, but ${suite.id} with these options has no LLM judge (it scores with deterministic judges only), so the judge model ${summarizer ? 'is used only as the fallback summarizer' : 'is never called'}`,
    );
  }
  for (const role of bound) {
    if (role === 'judge' || MODEL_ROLES.isSeat(role) || DEFENSE_ROLES.has(role) || reachable.has(role)) continue;
    warnings.push(`--model ${role}=… is given, but ${suite.id} with these options never uses role '${role}'`);
  }
  const counts = new Map<string, number>();
  for (const defense of prepared.defenses) counts.set(defense.id, (counts.get(defense.id) ?? 0) + 1);
  for (const [id, count] of counts) {
    if (count < 2) continue;
    const kind = prepared.defenses.find((defense) => defense.id === id)?.kind;
    warnings.push(
      kind === 'prompt'
        ? `--defense ${id} is given ${count} times; it rewrites the prompt ${count} times, in order`
        : `--defense ${id} is given ${count} times; the repeats have no further effect`,
    );
  }
  return [...new Set(warnings)];
}
