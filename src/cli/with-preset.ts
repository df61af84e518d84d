import { parseRoleBinding } from '../models/parse-model-spec.js';
import { MODEL_ROLES } from '../runner/role-registry.js';
import { PlanValidationError } from '../spec/errors.js';
import type { Suite, SuitePreset } from '../suites/suite.js';
import type { RunFlagValues } from './run-flags.js';

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

/**
 * Lays the preset named by `flags.preset` (from the command line or the config file) under the
 * merged flags: its options go beneath `set` (so `--config`, `--set` and suite flags win), and each
 * of its model bindings is added only for a role nobody bound with `--model` or `--grid`, where any
 * agent seat (`agent`, `agent-<id>`) counts as the seat role being bound. Without a preset, returns
 * the flags unchanged.
 */
export function withPreset({ suite, flags }: { suite: Suite; flags: RunFlagValues }): RunFlagValues {
  if (flags.preset === undefined) return flags;
  const preset = findPreset({ suite, id: flags.preset });
  const given = flags.model ?? [];
  const bound = [...given, ...(flags.grid ?? [])].map((text) => parseRoleBinding(text).role);
  const seat = (role: string) => MODEL_ROLES.isSeat(role);
  const taken = (role: string) => bound.includes(role) || (seat(role) && bound.some(seat));
  const extra = (preset.models ?? [])
    .filter((binding) => !taken(binding.role))
    .map((binding) => `${binding.role}=${binding.spec}`);
  return {
    ...flags,
    set: { ...preset.options, ...flags.set },
    ...(given.length + extra.length > 0 ? { model: [...given, ...extra] } : {}),
  };
}
