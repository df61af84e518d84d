import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { DatasetFormatError } from '../../spec/errors.js';
import { parsePythonJson } from './parse-python-json.js';
import { type PrivacyLensCase, privacyLensCaseSchema } from './privacylens-case.js';

export { type PrivacyLensCase, privacyLensCaseSchema } from './privacylens-case.js';

/** The case files of the main set and the two extensibility subsets (`--set subset=…`). */
export const SUBSETS = ['main', 'confide', 'culturebank'] as const;
/** One of {@link SUBSETS}. */
export type Subset = (typeof SUBSETS)[number];

/** `--set split=…`: every case, or PrivAct's train or test cases (main set only). */
export const SPLITS = ['all', 'train', 'test'] as const;
/** One of {@link SPLITS}. */
export type Split = (typeof SPLITS)[number];

/** Each subset's file, relative to `<dataDir>/privacylens/`. */
export const SUBSET_FILES: Readonly<Record<Subset, string>> = {
  main: 'main_data.json',
  confide: 'extensibility/confide_subset.json',
  culturebank: 'extensibility/culturebank_subset.json',
};

const splitFileSchema = z.object({
  description: z.string(),
  train: z.array(z.string()),
  test: z.array(z.string()),
});

/** Where our shipped copy of the split name lists lives (copied to dist with the other assets). */
export const PRIVACT_SPLIT_PATH = fileURLToPath(new URL('./privact-split.json', import.meta.url));

/**
 * PrivAct's train/test case names (§A8), from our own derived artifact `privact-split.json`.
 * Python's seeded shuffle cannot be replayed in TS, so the names are shipped instead; a test
 * checks them against the shared `privact_split.json`.
 */
export const privactSplit: { train: readonly string[]; test: readonly string[] } = splitFileSchema.parse(
  JSON.parse(readFileSync(PRIVACT_SPLIT_PATH, 'utf8')),
);

/**
 * Validates the parsed JSON of one case file: an array of cases with unique names. Throws a
 * `DatasetFormatError` that names the file, the case index (and name when it has one) and the
 * first offending field.
 */
export function parseCases({ json, file }: { json: unknown; file: string }): PrivacyLensCase[] {
  if (!Array.isArray(json)) {
    throw new DatasetFormatError(`${file}: expected a JSON array of cases, got ${typeof json}`);
  }
  const cases: PrivacyLensCase[] = [];
  const seen = new Set<string>();
  json.forEach((raw: unknown, index) => {
    const checked = privacyLensCaseSchema.safeParse(raw);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      const field = issue === undefined || issue.path.length === 0 ? '(case)' : issue.path.map(String).join('.');
      const name =
        typeof raw === 'object' && raw !== null && typeof Reflect.get(raw, 'name') === 'string'
          ? ` ('${String(Reflect.get(raw, 'name'))}')`
          : '';
      throw new DatasetFormatError(
        `${file}: case ${index}${name}, field '${field}': ${issue?.message ?? 'invalid'}; re-pull the dataset with \`confidant data pull privacylens\``,
      );
    }
    if (seen.has(checked.data.name)) {
      throw new DatasetFormatError(
        `${file}: case ${index} repeats the name '${checked.data.name}'; names must be unique`,
      );
    }
    seen.add(checked.data.name);
    cases.push(checked.data);
  });
  return cases;
}

/**
 * Keeps the cases of a split, in file order. `all` keeps everything; `train`/`test` apply only to
 * the main set and every listed name must be present, else the data is not the set the split was
 * made for (a `DatasetFormatError`).
 */
export function selectSplit({
  cases,
  split,
  file,
}: {
  cases: readonly PrivacyLensCase[];
  split: Split;
  file: string;
}): PrivacyLensCase[] {
  if (split === 'all') return [...cases];
  const wanted = new Set(privactSplit[split]);
  const kept = cases.filter((candidate) => wanted.has(candidate.name));
  if (kept.length !== wanted.size) {
    const present = new Set(kept.map((candidate) => candidate.name));
    const absent = [...wanted].filter((name) => !present.has(name));
    throw new DatasetFormatError(
      `${file}: the ${split} split names ${absent.length} case(s) the file lacks (${absent.slice(0, 3).join(', ')}…); use split=all or the main set`,
    );
  }
  return kept;
}

/**
 * Reads, validates and filters the cases of one subset from `datasetDir` (`<dataDir>/privacylens`).
 * Files are parsed with {@link parsePythonJson} because the CultureBank subset carries Python's
 * bare `NaN`. A file that is not JSON, or a case that does not match the schema, is a
 * `DatasetFormatError` naming the file.
 */
export async function loadCases({
  datasetDir,
  subset,
  split,
}: {
  datasetDir: string;
  subset: Subset;
  split: Split;
}): Promise<PrivacyLensCase[]> {
  const file = SUBSET_FILES[subset];
  const text = await readFile(join(datasetDir, file), 'utf8');
  let json: unknown;
  try {
    json = parsePythonJson(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new DatasetFormatError(`${file}: not valid JSON (${reason}); re-pull the dataset`, { cause: error });
  }
  const cases = parseCases({ json, file });
  if (cases.length === 0) throw new DatasetFormatError(`${file}: holds no cases; re-pull the dataset`);
  return selectSplit({ cases, split, file });
}
