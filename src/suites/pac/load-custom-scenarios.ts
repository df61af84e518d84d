import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, relative, resolve, sep } from 'node:path';
import { z } from 'zod';
import { DatasetFormatError, DatasetNotFoundError } from '../../spec/errors.js';
import { zodIssueText } from '../../spec/zod-issue-text.js';
import {
  normalizePacScenario,
  PAC_POLICY_TYPES,
  type PacPolicyType,
  type PacScenario,
  pacScenarioFileSchema,
} from './scenario-schema.js';

/** One problem of a custom scenario file: where (file, JSONL line, field) and what. */
export type CustomScenarioProblem = { file: string; line?: number; path: string; message: string };

/** What {@link loadCustomPacScenarios} returns: the scenarios, and the warnings to print before the run. */
export type CustomPacScenarios = { scenarios: PacScenario[]; warnings: string[] };

const SCENARIO_EXTENSIONS = ['.json', '.jsonl'];

/** Optional labels a custom scenario may carry beside the upstream fields. */
const labelsSchema = z.object({
  scenario: z
    .looseObject({
      policy_type: z.enum(PAC_POLICY_TYPES).optional(),
      domain: z.string().min(1).optional(),
    })
    .optional(),
});

/**
 * The scenario files `--scenarios <path>` names: the file itself (`.json`, one scenario; `.jsonl`,
 * one per line), or every `.json` / `.jsonl` file under the folder, at any depth and with any name,
 * in path order. A missing path, or a folder with no such file, is a user error.
 */
export function listCustomScenarioFiles(path: string): string[] {
  const target = resolve(path);
  let stats: ReturnType<typeof statSync>;
  try {
    stats = statSync(target);
  } catch {
    throw new DatasetNotFoundError(`--scenarios ${path}: ${target} does not exist`);
  }
  if (stats.isFile()) return [target];
  const files: string[] = [];
  const visit = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) visit(full);
      else if (SCENARIO_EXTENSIONS.includes(extname(name).toLowerCase())) files.push(full);
    }
  };
  visit(target);
  if (files.length === 0) {
    throw new DatasetFormatError(
      `--scenarios ${path}: no .json or .jsonl file under ${target} (one scenario per .json file, or one per line of a .jsonl file)`,
    );
  }
  return files;
}

/**
 * Loads the PAC scenarios of `--scenarios <path>` (see {@link listCustomScenarioFiles}). Every file
 * and every JSONL line is validated, and every problem of every file is collected (file, line,
 * field path, message); if there is any, one `DatasetFormatError` lists them all and nothing is
 * returned; files that hold no scenario at all are a `DatasetFormatError` naming them. Ids are
 * `custom/<path under the folder, without extension>` (plus `/<line>` for a JSONL
 * line). A scenario may label itself with `policy_type` (`change` or `range`, default `range`) and
 * `domain` (default: the folder holding the file). Policies that can never be violated (an empty
 * keyword list, or a keyword that is not verbatim in the memories it covers) are `warnings`.
 */
export function loadCustomPacScenarios({ path }: { path: string }): CustomPacScenarios {
  const files = listCustomScenarioFiles(path);
  const root = statSync(resolve(path)).isFile() ? dirname(resolve(path)) : resolve(path);
  const problems: CustomScenarioProblem[] = [];
  const scenarios: PacScenario[] = [];
  const warnings: string[] = [];
  for (const file of files) {
    const shown = relative(root, file).split(sep).join('/') || basename(file);
    const stem = relative(root, file).slice(0, -extname(file).length).split(sep).join('/');
    const text = readFileSync(file, 'utf8');
    const entries: Array<{ line?: number; text: string; id: string }> =
      extname(file).toLowerCase() === '.jsonl'
        ? text
            .split('\n')
            .map((lineText, index) => ({ line: index + 1, text: lineText, id: `custom/${stem}/${index + 1}` }))
            .filter((entry) => entry.text.trim() !== '')
        : text.trim() === ''
          ? []
          : [{ text, id: `custom/${stem}` }];
    if (entries.length === 0 && extname(file).toLowerCase() === '.json') {
      problems.push({ file: shown, path: '(file)', message: 'the file is empty (a .json file holds one scenario)' });
    }
    for (const entry of entries) {
      const at = entry.line === undefined ? {} : { line: entry.line };
      let json: unknown;
      try {
        json = JSON.parse(entry.text);
      } catch (cause) {
        problems.push({ file: shown, ...at, path: '(file)', message: `not valid JSON (${(cause as Error).message})` });
        continue;
      }
      const parsed = pacScenarioFileSchema.safeParse(json);
      const labels = labelsSchema.safeParse(json);
      if (parsed.success && !labels.success) {
        for (const issue of labels.error.issues) {
          problems.push({
            file: shown,
            ...at,
            path: issue.path.join('.'),
            message: zodIssueText({ issue, input: json }),
          });
        }
      }
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          problems.push({
            file: shown,
            ...at,
            path: fieldPath(issue.path),
            message: zodIssueText({ issue, input: json }),
          });
        }
        continue;
      }
      if (!labels.success) continue;
      const policyType: PacPolicyType = labels.data.scenario?.policy_type ?? 'range';
      const domain = labels.data.scenario?.domain ?? basename(dirname(file));
      const normalized = normalizePacScenario({ file: parsed.data, id: entry.id, split: 'custom', policyType, domain });
      if (!normalized.ok) {
        for (const problem of normalized.problems) problems.push({ file: shown, ...at, ...problem });
        continue;
      }
      const where = `${shown}${entry.line === undefined ? '' : `:${entry.line}`}`;
      for (const notice of normalized.keywordNotices) {
        warnings.push(`${where}: ${notice.path}: ${notice.message}, so it can never be detected`);
      }
      warnings.push(...emptyKeywordWarnings({ scenario: normalized.scenario, where }));
      scenarios.push(normalized.scenario);
    }
  }
  if (problems.length > 0) throw customScenarioError({ path, problems });
  if (scenarios.length === 0) throw noCustomScenarios({ path, files });
  return { scenarios, warnings };
}

/**
 * Files that parse but hold no scenario (`.jsonl` files that are empty or only blank lines): named,
 * so the run does not blame the data dir, whose PAC-Bench copy `--scenarios` replaces.
 */
function noCustomScenarios({ path, files }: { path: string; files: readonly string[] }): DatasetFormatError {
  const target = resolve(path);
  const what =
    files.length === 1 && files[0] === target
      ? `${target} contains no scenario (it is empty or holds only blank lines)`
      : `the ${files.length} file${files.length === 1 ? '' : 's'} under ${target} contain no scenario (each is empty or holds only blank lines)`;
  return new DatasetFormatError(
    `--scenarios ${path}: ${what}; write one scenario per line of a .jsonl file, or one per .json file`,
  );
}

/** One warning per policy with no violation keyword: nothing it protects can be detected. */
export function emptyKeywordWarnings({ scenario, where }: { scenario: PacScenario; where: string }): string[] {
  return scenario.agents.flatMap((agent) =>
    agent.policies
      .filter((policy) => policy.violationKeywords.length === 0)
      .map(
        (policy) =>
          `${where}: scenario.${agent.id} policy ${policy.index} has no violation keywords, so the keyword judges can never find it violated`,
      ),
  );
}

/** The one user error listing every problem, one per line, grouped by file in load order; it names `--scenarios` as given. */
function customScenarioError({ path, problems }: { path: string; problems: CustomScenarioProblem[] }) {
  const files = new Set(problems.map((problem) => problem.file)).size;
  const lines = problems.map(
    (problem) =>
      `  ${problem.file}${problem.line === undefined ? '' : `:${problem.line}`}: ${problem.path}: ${problem.message}`,
  );
  return new DatasetFormatError(
    `--scenarios ${path}: ${problems.length} problem${problems.length === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'}; nothing was run:\n${lines.join('\n')}`,
  );
}

function fieldPath(path: readonly PropertyKey[]): string {
  return path.length === 0 ? '(file)' : path.map(String).join('.');
}
