import { parseRoleBinding } from '../models/index.js';
import { isSeatRole } from '../models/roles.js';
import { PlanValidationError } from '../spec/errors.js';
import type { Suite, SuitePreset } from '../suites/suite.js';
import type { ConfigFile } from './build-plan.js';

/** The suite's preset `id`, or a user error that lists the suite's presets. */
export function findPreset({ suite, id }: { suite: Suite; id: string }): SuitePreset {
  const presets = suite.presets ?? [];
  const preset = presets.find((candidate) => candidate.id === id);
  if (preset !== undefined) return preset;
  const known = presets.length === 0 ? 'it has none' : `use one of ${presets.map((each) => each.id).join(', ')}`;
  throw new PlanValidationError(
    `suite ${suite.id} has no preset '${id}': ${known} (see \`confidant list presets ${suite.id}\`)`,
  );
}

const asList = (value: string | string[] | undefined): string[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/**
 * Lays a preset under the config file and the command line: its options go beneath `config.set`
 * (so `--config`, `--set` and suite flags win), and each of its model bindings is added only for
 * a role nobody bound, where any agent seat (`agent`, `agent-<id>`) counts as the seat role being
 * bound. The bindings join the list `buildPlan` reads: the command line's when it gives models,
 * else the config's. Without a preset id, returns its inputs unchanged.
 */
export function withPreset({
  suite,
  presetId,
  config,
  flagModels,
}: {
  suite: Suite;
  presetId: string | undefined;
  config: ConfigFile;
  flagModels: string[] | undefined;
}): { config: ConfigFile; flagModels: string[] | undefined } {
  if (presetId === undefined) return { config, flagModels };
  const preset = findPreset({ suite, id: presetId });
  const fromFlags = (flagModels?.length ?? 0) > 0;
  const given = fromFlags ? (flagModels ?? []) : asList(config.model);
  const bound = given.map((text) => parseRoleBinding(text).role);
  const taken = (role: string) => bound.includes(role) || (isSeatRole(role) && bound.some(isSeatRole));
  const extra = (preset.models ?? [])
    .filter((binding) => !taken(binding.role))
    .map((binding) => `${binding.role}=${binding.spec}`);
  const merged: ConfigFile = { ...config, set: { ...preset.options, ...config.set } };
  if (fromFlags) return { config: merged, flagModels: [...given, ...extra] };
  return {
    config: { ...merged, ...(given.length + extra.length > 0 ? { model: [...given, ...extra] } : {}) },
    flagModels,
  };
}
