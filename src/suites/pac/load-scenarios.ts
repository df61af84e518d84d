import { readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { restoreHint } from '../../datasets/data-dir.js';
import { inspectDatasetFile } from '../../datasets/inspect-dataset-file.js';
import { DatasetFormatError, DatasetNotFoundError, PlanValidationError } from '../../spec/errors.js';
import { zodIssueText } from '../../spec/zod-issue-text.js';
import { formatPacScenarioId } from './scenario-id.js';
import {
  FIELD_NAME_CONFLICT,
  normalizePacScenario,
  PAC_POLICY_TYPES,
  type PacPolicyType,
  type PacScenario,
  type PacScenarioSplit,
  pacScenarioFileSchema,
} from './scenario-schema.js';

/**
 * `--split`: one paper split, both, our starter scenarios, our N-party starters (named agents,
 * direct messages), or our feature scenarios (the scheduling check and the shared-file
 * appenders). The last two are kept apart so the starter set, the demo and the README's numbers
 * stay as they are.
 */
export const PAC_SPLIT_OPTIONS = ['change', 'range', 'all', 'starter', 'nparty', 'features'] as const;
/** One of {@link PAC_SPLIT_OPTIONS}. */
export type PacSplitOption = (typeof PAC_SPLIT_OPTIONS)[number];

/** The dataset folder name under the data dir (`<dataDir>/pacbench/`). */
export const PAC_DATASET_NAME = 'pacbench';

/**
 * Our committed starter scenarios (copied to dist with the other assets). Same layout as the
 * paper data: `<change|range>/<Domain>/policy_<k>.json`.
 */
export const PAC_STARTER_DIR: string = fileURLToPath(new URL('./starter/', import.meta.url));

/**
 * Our committed N-party starter scenarios (`--split nparty`): named agents, direct messages and
 * audience-scoped policies. Kept apart from {@link PAC_STARTER_DIR} so the default starter set
 * (and `confidant demo`) stays the two- and three-agent scenarios it always was. Same layout.
 */
export const PAC_NPARTY_DIR: string = fileURLToPath(new URL('./nparty/', import.meta.url));

/** Our committed feature scenarios (`--split features`), in the starter layout. */
export const PAC_FEATURES_DIR: string = fileURLToPath(new URL('./features/', import.meta.url));

/** A split we ship (no data dir needed, no dataset files): a key of {@link PAC_BUNDLED_SPLITS}. */
export type PacBundledSplit = 'starter' | 'nparty' | 'features';

/** The splits we ship, each with its committed folder in the paper layout. */
export const PAC_BUNDLED_SPLITS: Readonly<Record<PacBundledSplit, string>> = {
  starter: PAC_STARTER_DIR,
  nparty: PAC_NPARTY_DIR,
  features: PAC_FEATURES_DIR,
};

/** Whether `split` is one we ship ({@link PAC_BUNDLED_SPLITS}) rather than the paper data. */
export function isBundledSplit(split: PacSplitOption): split is PacBundledSplit {
  return Object.hasOwn(PAC_BUNDLED_SPLITS, split);
}

/** One scenario file the loader will read, with the id and labels it gives the scenario. */
export type PacScenarioFileRef = {
  path: string;
  id: string;
  split: PacScenarioSplit;
  policyType: PacPolicyType;
  domain: string;
  policy: number;
};

/** Something the loader tolerated but a careful user may want to know (logged at debug level). */
export type PacLoadNotice = { file: string; path: string; message: string };

const POLICY_FILE = /^policy_(\d+)\.json$/;

/** Where the scenario folders of `split` live: `<dataDir>/pacbench/scenarios`, or the bundled split's folder. */
export function pacScenarioRoot({ dataDir, split }: { dataDir: string; split: PacSplitOption }): string {
  return isBundledSplit(split) ? PAC_BUNDLED_SPLITS[split] : join(dataDir, PAC_DATASET_NAME, 'scenarios');
}

/** Domain names compare case-insensitively, with spaces and underscores equivalent. */
function domainKey(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '_');
}

/** The sub-folders of `dir`; entries that are neither a folder nor a file (a dangling symlink) go to `problems`. */
function subdirectories({ dir, root, problems }: { dir: string; root: string; problems: string[] }): string[] {
  return readdirSync(dir)
    .filter((name) => {
      const state = inspectDatasetFile(join(dir, name));
      if (!state.ok && state.kind === 'directory') return true;
      if (!state.ok && state.kind === 'dangling-symlink') {
        problems.push(`${relative(root, join(dir, name))} ${state.detail}`);
      }
      return false;
    })
    .sort();
}

const PLACE_PAC_DATA =
  'The upstream data has no licence, so `confidant data pull` does not download it: place the files there ' +
  'yourself (scenarios/{change,range}/<Domain>/policy_0.json under <dataDir>/pacbench/, or ' +
  '`confidant data pull pacbench --from <your copy>`), point --data-dir at the folder that holds pacbench/, ' +
  'or use --split starter (or --split nparty).';

/**
 * Lists the scenario files of a selection, in a stable order (policy type, then domain, then
 * policy number). `domains` filters by directory name (case-insensitive; `Air Freight and
 * Logistics` matches `Air_Freight_and_Logistics`). A missing paper-data folder is a
 * `DatasetNotFoundError`; an unknown domain is a `PlanValidationError` listing valid ones.
 */
export function listPacScenarioFiles({
  dataDir,
  split,
  domains,
}: {
  dataDir: string;
  split: PacSplitOption;
  domains?: readonly string[];
}): PacScenarioFileRef[] {
  const root = pacScenarioRoot({ dataDir, split });
  const types: readonly PacPolicyType[] = split === 'change' || split === 'range' ? [split] : PAC_POLICY_TYPES;
  const builtIn = isBundledSplit(split);
  const refs: PacScenarioFileRef[] = [];
  const problems: string[] = [];
  for (const policyType of types) {
    const typeDir = join(root, policyType);
    const typeState = inspectDatasetFile(typeDir);
    if (typeState.ok || typeState.kind !== 'directory') {
      if (builtIn) continue;
      const found =
        typeState.ok || typeState.kind === 'empty'
          ? ' (a file stands there, not a folder)'
          : typeState.kind === 'missing'
            ? ''
            : ` (it ${typeState.detail})`;
      throw new DatasetNotFoundError(`PAC-Bench scenarios not found at ${typeDir}${found}. ${PLACE_PAC_DATA}`);
    }
    for (const domain of subdirectories({ dir: typeDir, root, problems })) {
      const files = readdirSync(join(typeDir, domain))
        .map((name) => ({ name, match: POLICY_FILE.exec(name) }))
        .filter((entry) => entry.match !== null)
        .map((entry) => ({ name: entry.name, policy: Number(entry.match?.[1]) }))
        .sort((left, right) => left.policy - right.policy);
      const scenarioSplit: PacScenarioSplit = isBundledSplit(split) ? split : policyType;
      for (const { name, policy } of files) {
        refs.push({
          path: join(typeDir, domain, name),
          id: formatPacScenarioId({ split: scenarioSplit, policyType, domain, policy }),
          split: scenarioSplit,
          policyType,
          domain,
          policy,
        });
      }
    }
  }
  if (!builtIn) {
    for (const ref of refs) {
      const state = inspectDatasetFile(ref.path);
      if (!state.ok) problems.push(`${relative(root, ref.path)} ${state.detail}`);
    }
    if (problems.length > 0) {
      throw new DatasetNotFoundError(
        `PAC-Bench scenarios under ${root} are incomplete: ${problems.sort().join('; ')}. ` +
          `Fix the copy: ${restoreHint({ name: PAC_DATASET_NAME })}.`,
      );
    }
    if (refs.length === 0) throw noScenarioFiles({ root, types });
  }
  if (domains === undefined || domains.length === 0) return refs;
  const known = [...new Set(refs.map((ref) => ref.domain))].sort();
  const wanted = new Set<string>();
  for (const name of domains) {
    const found = known.find((domain) => domainKey(domain) === domainKey(name));
    if (found === undefined) {
      const examples = known.slice(0, 8).join(', ');
      throw new PlanValidationError(
        `unknown PAC domain '${name}' for split '${split}'; valid domains include ${examples}` +
          `${known.length > 8 ? ', …' : ''} (${known.length} in total, the directory names under ${root})`,
      );
    }
    wanted.add(found);
  }
  return refs.filter((ref) => wanted.has(ref.domain));
}

/** Why a scenario folder gave nothing: what the loader looks for, and a few names it found instead. */
function noScenarioFiles({ root, types }: { root: string; types: readonly PacPolicyType[] }): DatasetFormatError {
  const found: string[] = [];
  for (const policyType of types) {
    const typeDir = join(root, policyType);
    for (const domain of subdirectories({ dir: typeDir, root, problems: [] })) {
      for (const name of readdirSync(join(typeDir, domain))) found.push(`${policyType}/${domain}/${name}`);
    }
    for (const name of readdirSync(typeDir)) {
      if (!statSync(join(typeDir, name)).isDirectory()) found.push(`${policyType}/${name}`);
    }
  }
  const seen =
    found.length === 0
      ? 'the folders hold no files'
      : `found instead: ${found.slice(0, 3).join(', ')}${found.length > 3 ? `, … (${found.length} files)` : ''}`;
  return new DatasetFormatError(
    `no PAC-Bench scenario under ${root}: the loader reads ${types.map((type) => `${type}/<Domain>/policy_<k>.json`).join(' and ')}, and ${seen}; rename the files to policy_0.json, policy_1.json, … inside one folder per domain`,
  );
}

/**
 * Validates and normalises the parsed JSON of one scenario file. A file that does not match
 * the schema, or whose indices are out of range, is a `DatasetFormatError` naming the file and
 * every bad field at once (`field '<path>': <message>`, joined by `; `); a file spelling one field both ways is a `PlanValidationError` (pacbench.md §1.1).
 */
export function parsePacScenarioFile({ json, ref }: { json: unknown; ref: Omit<PacScenarioFileRef, 'policy'> }): {
  scenario: PacScenario;
  notices: PacLoadNotice[];
} {
  const parsed = pacScenarioFileSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues;
    const conflict = issues.find((issue) => issue.code === 'custom' && issue.params?.kind === FIELD_NAME_CONFLICT);
    if (conflict !== undefined) {
      throw new PlanValidationError(
        `${ref.path}: field '${fieldPath(conflict.path)}' ${conflict.message} (use either the generator names ` +
          'memory/privacy_constraint/memory_idx or the simulator names context/privacy_policy/context_idx)',
      );
    }
    const fields = issues.map((issue) => `field '${fieldPath(issue.path)}': ${zodIssueText({ issue, input: json })}`);
    throw new DatasetFormatError(`${ref.path}: ${fields.length === 0 ? "field '(file)': invalid" : fields.join('; ')}`);
  }
  const normalized = normalizePacScenario({
    file: parsed.data,
    id: ref.id,
    split: ref.split,
    policyType: ref.policyType,
    domain: ref.domain,
  });
  if (!normalized.ok) {
    const fields = normalized.problems.map((problem) => `field '${problem.path}': ${problem.message}`);
    throw new DatasetFormatError(`${ref.path}: ${fields.join('; ')}`);
  }
  return {
    scenario: normalized.scenario,
    notices: normalized.keywordNotices.map((notice) => ({ file: ref.path, ...notice })),
  };
}

function fieldPath(path: readonly PropertyKey[]): string {
  return path.length === 0 ? '(file)' : path.map(String).join('.');
}

/**
 * Loads the scenarios of a selection (see {@link listPacScenarioFiles} for order and errors).
 * A file that is not JSON is a `DatasetFormatError`. Tolerated oddities (keywords that are not
 * verbatim in their memories) go to `onNotice`, if given. Ids are unique and stable.
 */
export async function loadPacScenarios({
  dataDir,
  split,
  domains,
  onNotice,
}: {
  dataDir: string;
  split: PacSplitOption;
  domains?: readonly string[];
  onNotice?: (notice: PacLoadNotice) => void;
}): Promise<PacScenario[]> {
  const refs = listPacScenarioFiles({ dataDir, split, ...(domains === undefined ? {} : { domains }) });
  const scenarios: PacScenario[] = [];
  for (const ref of refs) {
    const text = await readFile(ref.path, 'utf8');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (cause) {
      throw new DatasetFormatError(`${ref.path}: not valid JSON (${(cause as Error).message})`, { cause });
    }
    const { scenario, notices } = parsePacScenarioFile({ json, ref });
    for (const notice of notices) onNotice?.(notice);
    scenarios.push(scenario);
  }
  return scenarios;
}
