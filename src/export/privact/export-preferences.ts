import { basename, dirname, extname, join } from 'node:path';
import type { ChainRole } from '../../orchestration/topology.js';
import { PlanValidationError } from '../../spec/errors.js';
import type { RunStore } from '../../spec/run-store.js';
import { seededRandom } from '../../spec/seeded-random.js';
import { type LcArsParameters, lcArsParametersOf, treePlan } from '../../suites/privacylens/index.js';
import {
  formatExtension,
  type PreferenceFormat,
  writePreferenceMeta,
  writePreferencePairs,
} from '../write-preference-pairs.js';
import { explainNoPairs, type RunPairSettings } from './explain-no-pairs.js';
import { buildPreferenceRecords, isChainRole, type PreferenceRecord, topologyRoles } from './preference-records.js';
import { readTreeRun, type TreeRun } from './read-tree-run.js';
import type { PromptStyle } from './training-prompt.js';

/** The request of `exportPreferences`; unset parameters default to each run's own. */
export type ExportPreferencesOptions = {
  /** One or more `privact-tree` runs (e.g. the shards of one build); their pairs are concatenated. */
  stores: readonly RunStore[];
  /**
   * Roles to pair; default: every role of the chain after its first stage (verifier and refiner
   * for G>V>R, checker and executor for E>C>X), as PrivAct trains V and R and keeps G.
   */
  roles?: readonly string[];
  format: PreferenceFormat;
  promptStyle: PromptStyle;
  /** τ; default: the run's `threshold` option (0.5 unless it was built with another). */
  threshold?: number;
  /** LC-ARS overrides; default: the parameters each run was built with. */
  lcars?: Partial<LcArsParameters>;
  /** Share of each role's pairs held out as a validation file, by a seeded shuffle; 0 (default) holds out none. */
  validationFraction?: number;
  /** Seed of that shuffle (default 42, as upstream's train.py). */
  seed?: number;
};

/** The pairs of one role, split into train and (optionally) validation, as file texts. */
export type RolePreferences = {
  role: ChainRole;
  train: { records: PreferenceRecord[]; pairs: string; meta: string };
  validation: { records: PreferenceRecord[]; pairs: string; meta: string } | null;
};

/** Counts for the summary printed after an export. */
export type ExportSummary = {
  runs: Array<{
    location: string;
    runId: string;
    trees: number;
    failed: number;
    missing: number;
    threshold: number;
    lcars: LcArsParameters;
  }>;
  roles: ChainRole[];
  perRole: Record<string, number>;
  perCase: Array<{ caseName: string; counts: Record<string, number> }>;
  format: PreferenceFormat;
  promptStyle: PromptStyle;
};

/** Everything an export writes, as strings (the CLI chooses the paths and writes them). */
export type PreferenceExport = {
  roles: RolePreferences[];
  summary: ExportSummary;
  /** `export.json`: what was exported from which runs with which parameters. */
  manifest: string;
};

function assertFinite(value: number | undefined, what: string): void {
  if (value !== undefined && !Number.isFinite(value)) {
    throw new PlanValidationError(`${what} must be a number, got '${String(value)}'`);
  }
}

/**
 * Holds out `ceil(fraction · n)` pairs (as Hugging Face's `train_test_split` does) chosen by a
 * seeded Fisher–Yates shuffle; both parts keep the export order. The draw is deterministic but
 * not Python's, so it does not pick the same pairs as upstream.
 */
function splitValidation<T>({ items, fraction, seed }: { items: readonly T[]; fraction: number; seed: number }) {
  if (fraction === 0 || items.length === 0) return { train: [...items], validation: null };
  const random = seededRandom(seed).next;
  const indices = items.map((_item, index) => index);
  for (let index = indices.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [indices[index], indices[other]] = [indices[other] ?? 0, indices[index] ?? 0];
  }
  const held = new Set(indices.slice(0, Math.ceil(fraction * items.length)));
  return {
    train: items.filter((_item, index) => !held.has(index)),
    validation: items.filter((_item, index) => held.has(index)),
  };
}

/** Every role of each run's chain after its first stage, in chain order. */
function defaultRoles(runs: readonly TreeRun[]): ChainRole[] {
  const roles: ChainRole[] = [];
  for (const run of runs) {
    const [first, ...later] = treePlan(run.options).topology.stages;
    const firstRoles = new Set(first?.members.map((member) => member.role));
    for (const stage of later) {
      for (const { role } of stage.members) if (!firstRoles.has(role) && !roles.includes(role)) roles.push(role);
    }
  }
  return roles;
}

/** The requested roles, validated against every run's topology. */
function checkRoles({ roles, runs }: { roles: readonly string[]; runs: readonly TreeRun[] }): ChainRole[] {
  if (roles.length === 0) throw new PlanValidationError('--role needs at least one role, e.g. --role verifier,refiner');
  const checked: ChainRole[] = [];
  for (const role of roles) {
    if (!isChainRole(role)) {
      throw new PlanValidationError(
        `unknown role '${role}' for --role: use roles of the tree's chain, e.g. verifier, refiner (or generator)`,
      );
    }
    for (const run of runs) {
      const available = topologyRoles(run);
      if (!available.includes(role)) {
        throw new PlanValidationError(
          `role '${role}' is not in the chain ${run.options.topology} of ${run.location}: use ${available.join(', ')}`,
        );
      }
    }
    if (!checked.includes(role)) checked.push(role);
  }
  return checked;
}

/**
 * Builds PrivAct preference data from judged trees (privact.md §5–8): reads every run through its
 * store (never calling a model), recomputes LC-ARS rewards and mean values with the run's
 * parameters or the overrides, collects sibling pairs at τ for each role, and renders the pairs
 * file and the aligned `.meta.jsonl` sidecar of each role, plus a manifest and a summary.
 * Throws a user error (PlanValidationError / StoreFormatError) for a run that is not a
 * `privact-tree` run, an unknown role, or a bad threshold, fraction or parameter, and when no
 * pair at all comes out (saying why: no tree, no rewarded leaf, or no sibling pair across τ).
 */
export async function exportPreferences(options: ExportPreferencesOptions): Promise<PreferenceExport> {
  const { stores, format, promptStyle, threshold, lcars = {}, validationFraction = 0, seed = 42 } = options;
  if (stores.length === 0) throw new PlanValidationError('give at least one privact-tree run directory');
  assertFinite(threshold, '--threshold');
  for (const key of ['alpha', 'beta', 'b1', 'b2'] as const) assertFinite(lcars[key], `--${key}`);
  if (!Number.isFinite(validationFraction) || validationFraction < 0 || validationFraction >= 1) {
    throw new PlanValidationError(`--split-validation must be a fraction in [0, 1), got '${validationFraction}'`);
  }
  const runs: TreeRun[] = [];
  for (const store of stores) runs.push(await readTreeRun({ store }));
  const roles = checkRoles({ roles: options.roles ?? defaultRoles(runs), runs });

  const all: PreferenceRecord[] = [];
  const summaryRuns: ExportSummary['runs'] = [];
  const used: RunPairSettings[] = [];
  for (const run of runs) {
    const settings = {
      roles,
      threshold: threshold ?? run.options.threshold,
      lcars: { ...lcArsParametersOf(run.options), ...lcars },
      promptStyle,
    };
    used.push({ run, threshold: settings.threshold, lcars: settings.lcars });
    all.push(...buildPreferenceRecords({ run, settings }));
    summaryRuns.push({
      location: run.location,
      runId: run.header.runId,
      trees: run.trees.length,
      failed: run.failed.length,
      missing: run.missing.length,
      threshold: settings.threshold,
      lcars: settings.lcars,
    });
  }

  if (all.length === 0) {
    throw new PlanValidationError(`no preference pair to export for ${roles.join(', ')}: ${explainNoPairs(used)}`);
  }

  const perRole: Record<string, number> = Object.fromEntries(roles.map((role) => [role, 0]));
  const perCase = new Map<string, Record<string, number>>();
  for (const record of all) {
    perRole[record.role] = (perRole[record.role] ?? 0) + 1;
    const counts = perCase.get(record.caseName) ?? Object.fromEntries(roles.map((role) => [role, 0]));
    counts[record.role] = (counts[record.role] ?? 0) + 1;
    perCase.set(record.caseName, counts);
  }
  for (const run of runs) {
    for (const sample of run.trees) {
      if (!perCase.has(sample.caseName))
        perCase.set(sample.caseName, Object.fromEntries(roles.map((role) => [role, 0])));
    }
  }

  const render = (records: PreferenceRecord[]) => ({
    records,
    pairs: writePreferencePairs({ records, format }),
    meta: writePreferenceMeta({ records }),
  });
  const rolePreferences = roles.map((role): RolePreferences => {
    const split = splitValidation({
      items: all.filter((record) => record.role === role),
      fraction: validationFraction,
      seed,
    });
    return { role, train: render(split.train), validation: split.validation ? render(split.validation) : null };
  });
  const summary: ExportSummary = {
    runs: summaryRuns,
    roles,
    perRole,
    perCase: [...perCase.entries()].map(([caseName, counts]) => ({ caseName, counts })),
    format,
    promptStyle,
  };
  const manifest = {
    kind: 'privact-preferences',
    format,
    promptMode: promptStyle,
    roles,
    validationFraction,
    seed,
    runs: summaryRuns,
    pairs: Object.fromEntries(
      rolePreferences.map((entry) => [
        entry.role,
        { train: entry.train.records.length, validation: entry.validation?.records.length ?? 0 },
      ]),
    ),
  };
  return { roles: rolePreferences, summary, manifest: `${JSON.stringify(manifest, null, 2)}\n` };
}

/** The summary as text for stderr: the runs and parameters, pairs per role, then pairs per case. */
export function formatExportSummary(summary: ExportSummary): string {
  const lines: string[] = [];
  for (const run of summary.runs) {
    const { alpha, beta, b1, b2, form, noActionReward } = run.lcars;
    lines.push(
      `${run.runId}: ${run.trees} tree(s)` +
        (run.failed > 0 ? `, ${run.failed} failed (skipped)` : '') +
        (run.missing > 0 ? `, ${run.missing} not built yet (resume the run for them)` : '') +
        `; τ ${run.threshold}; LC-ARS ${form} form, α ${alpha}, β ${beta}, b1 ${b1}, b2 ${b2}, no action ${noActionReward}`,
    );
  }
  lines.push(`prompts: ${summary.promptStyle}; format: ${summary.format}`);
  lines.push(`pairs per role: ${summary.roles.map((role) => `${role} ${summary.perRole[role] ?? 0}`).join(', ')}`);
  const width = Math.max(4, ...summary.perCase.map((entry) => entry.caseName.length));
  lines.push('pairs per case:');
  lines.push(`  ${'case'.padEnd(width)}  ${summary.roles.map((role) => role.padStart(9)).join('  ')}`);
  for (const entry of summary.perCase) {
    const counts = summary.roles.map((role) => String(entry.counts[role] ?? 0).padStart(9)).join('  ');
    lines.push(`  ${entry.caseName.padEnd(width)}  ${counts}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Where the files of one role go. */
export type PreferencePaths = {
  pairs: string;
  meta: string;
  validationPairs: string;
  validationMeta: string;
};

/**
 * The paths of an export (pure path arithmetic, no I/O). `out` ending in `.jsonl` or `.json` is a
 * file for the single role exported (its sidecar is `<base>.meta.jsonl`); anything else is a
 * directory holding `<role>.<format>.jsonl` (`.json` for `privact`) and `<role>.meta.jsonl`.
 * Validation files insert `.validation` before those suffixes; the manifest is `export.json` in
 * the directory, or `<base>.export.json` beside the file. Several roles into one file is a user error.
 */
export function preferencePaths({
  out,
  roles,
  format,
}: {
  out: string;
  roles: readonly ChainRole[];
  format: PreferenceFormat;
}): { byRole: Map<ChainRole, PreferencePaths>; manifest: string; directory: string | null } {
  const extension = extname(out);
  const byRole = new Map<ChainRole, PreferencePaths>();
  if (extension === '.jsonl' || extension === '.json') {
    const [only] = roles;
    if (only === undefined || roles.length !== 1) {
      throw new PlanValidationError(
        `--out ${out} is one file, but ${roles.length} roles are exported: give a directory, or one --role`,
      );
    }
    const base = join(dirname(out), basename(out, extension));
    byRole.set(only, {
      pairs: out,
      meta: `${base}.meta.jsonl`,
      validationPairs: `${base}.validation${extension}`,
      validationMeta: `${base}.validation.meta.jsonl`,
    });
    return { byRole, manifest: `${base}.export.json`, directory: null };
  }
  const extensionOfFormat = formatExtension(format);
  for (const role of roles) {
    byRole.set(role, {
      pairs: join(out, `${role}.${format}${extensionOfFormat}`),
      meta: join(out, `${role}.meta.jsonl`),
      validationPairs: join(out, `${role}.validation.${format}${extensionOfFormat}`),
      validationMeta: join(out, `${role}.validation.meta.jsonl`),
    });
  }
  return { byRole, manifest: join(out, 'export.json'), directory: out };
}
