import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ZodType } from 'zod';
import { canonicalJson } from '../models/index.js';
import { parseJsonLine, readJsonLines } from '../spec/json-lines.js';
import { makeDirectory } from '../spec/make-directory.js';
import { GenerationError } from './generation-error.js';
import { writeFileAtomic } from './write-file-atomic.js';

/** The journal folder inside a generation's output folder (no suite loader looks there). */
export const GENERATION_DIR = '.generate';
/** What the generation is made of: a resume must find it unchanged. */
export const GENERATION_PLAN_FILE = 'plan.json';
/** One JSON line per journaled step (the generator's own line schema). */
export const GENERATION_JOURNAL_FILE = 'journal.jsonl';

/**
 * What a generation is made of. `settings` are the generator's options that shape its output
 * (compared one level deep, so `parameters.users` is named `users`); `prompts` maps
 * `<template id>@v<version>` to the SHA-256 of each prompt; `datagenModel` is `provider:modelId`
 * (endpoints may change between sessions).
 */
export type GenerationPlan = {
  formatVersion: 1;
  /** The generator's id (`pac`, `privacybench`). */
  generator: string;
  settings: Record<string, unknown>;
  prompts: Record<string, string>;
  datagenModel: string;
};

/** The resumable journal of one generation. */
export type GenerationJournal<Line> = {
  /** `<outDir>/.generate`. */
  readonly dir: string;
  /** The lines read when the journal was opened, in file order. */
  readonly lines: readonly Line[];
  /**
   * Validates and appends one line; appends are serialised, each one a single write of one line,
   * so a crash leaves at most a torn last line (ignored when the journal is opened again).
   */
  append(line: Line): Promise<void>;
};

/**
 * Opens (or starts) the journal of a generation in `<outDir>/.generate/`. A new journal writes
 * `plan.json` atomically; an existing one must hold the same plan, or a {@link GenerationError}
 * names the differing fields (a generation never continues with another seed, prompt wording or
 * datagen model) — except the `mayChange` settings (retry limits, concurrency), which only bound
 * how the work is done. `journal.jsonl` is read by the run store's JSON-lines contract
 * (`createJsonLinesReader`): a torn last line (left by a kill) is ignored, any other line that
 * does not match `lineSchema` is an error naming it. `labels` name settings in messages.
 */
export async function openGenerationJournal<Line>({
  outDir,
  plan,
  lineSchema,
  mayChange = [],
  labels = {},
}: {
  outDir: string;
  plan: GenerationPlan;
  lineSchema: ZodType<Line>;
  mayChange?: readonly string[];
  labels?: Readonly<Record<string, string>>;
}): Promise<GenerationJournal<Line>> {
  const dir = join(outDir, GENERATION_DIR);
  const planPath = join(dir, GENERATION_PLAN_FILE);
  const journalPath = join(dir, GENERATION_JOURNAL_FILE);
  await makeDirectory(dir);
  const storedPlan = await readIfExists(planPath);
  if (storedPlan === undefined) {
    await writeFileAtomic(planPath, `${JSON.stringify(plan, null, 2)}\n`);
  } else {
    const differences = planDifferences({ stored: parseJson(storedPlan), plan, mayChange, labels });
    if (differences.length > 0) {
      throw new GenerationError(
        `${outDir} holds a ${plan.generator} generation with other settings (${differences.join(', ')}); ` +
          'repeat it with the original settings to continue it, or choose another --out',
      );
    }
  }
  const lines = readJsonLines({
    text: (await readIfExists(journalPath)) ?? '',
    parse: (line) => parseJsonLine({ line, schema: lineSchema, what: `a ${plan.generator} journal line` }),
    malformed: ({ line, reason }) =>
      new GenerationError(`${journalPath}:${line} is ${reason}; delete ${dir} to start over`),
  });
  let queue: Promise<void> = Promise.resolve();
  return {
    dir,
    lines,
    append(line) {
      const write = queue.then(async () => {
        const checked = lineSchema.parse(line);
        await appendFile(journalPath, `${JSON.stringify(checked)}\n`, 'utf8');
      });
      queue = write.catch(() => undefined);
      return write;
    },
  };
}

/** Names of the plan fields that differ: format, generator, datagen model, prompts, then each setting. */
function planDifferences({
  stored,
  plan,
  mayChange,
  labels,
}: {
  stored: unknown;
  plan: GenerationPlan;
  mayChange: readonly string[];
  labels: Readonly<Record<string, string>>;
}): string[] {
  if (!isRecord(stored)) return [`${GENERATION_PLAN_FILE} is unreadable`];
  const differences: string[] = [];
  const compare = (name: string, a: unknown, b: unknown) => {
    if (canonicalJson(a) !== canonicalJson(b)) differences.push(name);
  };
  compare('journal format', stored.formatVersion, plan.formatVersion);
  compare(`generator (was ${String(stored.generator)})`, stored.generator, plan.generator);
  compare(`datagen model (was ${String(stored.datagenModel)})`, stored.datagenModel, plan.datagenModel);
  compare('prompt versions', stored.prompts, plan.prompts);
  const old = isRecord(stored.settings) ? stored.settings : {};
  for (const [key, value] of Object.entries(plan.settings)) {
    if (mayChange.includes(key)) continue;
    const before = old[key];
    if (isRecord(value) && (before === undefined || isRecord(before))) {
      for (const [inner, innerValue] of Object.entries(value)) {
        compare(labels[inner] ?? inner, before?.[inner], innerValue);
      }
    } else {
      compare(labels[key] ?? key, before, value);
    }
  }
  return differences;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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
