import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { canonicalJson } from '../../../models/index.js';
import { GenerationError } from './generation-error.js';
import type { GenerationOptions } from './generation-options.js';

/** Where the journal lives inside the output directory. */
export const JOURNAL_DIR = '.generate';

/** What a generation is made of; a resume must find it unchanged. */
export type GenerationPlan = {
  formatVersion: 1;
  options: GenerationOptions;
  /** `<template id>@<version>` → SHA-256 of every datagen prompt. */
  prompts: Record<string, string>;
  /** `provider:modelId` of the datagen role (endpoints may change between sessions). */
  datagenModel: string;
};

/** One accepted datagen answer for a unit, at a given attempt (1-based). */
export type JournalEntry = { unit: string; attempt: number; output: unknown };

/** The resumable step journal of one generation. */
export type GenerationJournal = {
  /** The journal directory (`<out>/.generate`). */
  readonly dir: string;
  /** The latest entry of `unit`, if any. */
  latest(unit: string): JournalEntry | undefined;
  /** Appends an entry (one `appendFile` of one JSON line, so a crash leaves at most a partial last line). */
  append(entry: JournalEntry): Promise<void>;
  /** How many units have an entry. */
  size(): number;
};

/**
 * Opens (or starts) the journal of a generation in `<outDir>/.generate/`: `plan.json` holds the
 * options, prompt versions and datagen model, and `units.jsonl` one line per parsed unit output.
 * Readers take the last line per unit and ignore a partial last line. A plan that differs from the
 * stored one is a {@link GenerationError} naming the differing fields: a generation never resumes
 * with other settings, except the retry limits (`maxAttempts`, `maxParseRetries`), which may be
 * raised to get past a unit that kept failing.
 */
export async function openGenerationJournal({
  outDir,
  plan,
}: {
  outDir: string;
  plan: GenerationPlan;
}): Promise<GenerationJournal> {
  const dir = join(outDir, JOURNAL_DIR);
  const planPath = join(dir, 'plan.json');
  const unitsPath = join(dir, 'units.jsonl');
  await mkdir(dir, { recursive: true });
  const storedText = await readIfExists(planPath);
  if (storedText === undefined) {
    await writeFile(planPath, `${JSON.stringify(plan, null, 2)}\n`, 'utf8');
  } else {
    const stored = parseJson(storedText);
    const differences = differingFields(stored, plan);
    if (differences.length > 0) {
      throw new GenerationError(
        `${outDir} holds an unfinished generation with other settings (${differences.join(', ')}); ` +
          'repeat the original command to continue it, or choose another --out',
      );
    }
  }
  const entries = new Map<string, JournalEntry>();
  const text = (await readIfExists(unitsPath)) ?? '';
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const value = parseJson(line);
    if (!isEntry(value)) {
      if (index === lines.length - 1) return; // a partial line left by a kill
      throw new GenerationError(`${unitsPath}:${index + 1} is not a journal entry; delete ${dir} to start over`);
    }
    entries.set(value.unit, value);
  });
  return {
    dir,
    latest: (unit) => entries.get(unit),
    async append(entry) {
      await appendFile(unitsPath, `${JSON.stringify(entry)}\n`, 'utf8');
      entries.set(entry.unit, entry);
    },
    size: () => entries.size,
  };
}

async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return undefined;
    throw error;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isEntry(value: unknown): value is JournalEntry {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return typeof record.unit === 'string' && typeof record.attempt === 'number' && 'output' in record;
}

/** Options that only bound retries: a resume may raise them (they do not change what is generated). */
const RETRY_LIMITS: ReadonlySet<string> = new Set(['maxAttempts', 'maxParseRetries']);

/** Dotted names of the plan fields that differ (one level into `options` and its `parameters`). */
function differingFields(stored: unknown, plan: GenerationPlan): string[] {
  if (typeof stored !== 'object' || stored === null) return ['plan.json is unreadable'];
  const old = stored as Record<string, unknown>;
  const differences: string[] = [];
  const compare = (name: string, a: unknown, b: unknown) => {
    if (canonicalJson(a) !== canonicalJson(b)) differences.push(name);
  };
  compare('formatVersion', old.formatVersion, plan.formatVersion);
  compare('datagen model', old.datagenModel, plan.datagenModel);
  compare('prompt versions', old.prompts, plan.prompts);
  const oldOptions = (typeof old.options === 'object' && old.options !== null ? old.options : {}) as Record<
    string,
    unknown
  >;
  for (const [key, value] of Object.entries(plan.options)) {
    if (RETRY_LIMITS.has(key)) continue;
    if (key === 'parameters') {
      const oldParameters = (oldOptions.parameters ?? {}) as Record<string, unknown>;
      for (const [name, parameter] of Object.entries(value as Record<string, unknown>)) {
        compare(name, oldParameters[name], parameter);
      }
    } else {
      compare(key, oldOptions[key], value);
    }
  }
  return differences;
}
