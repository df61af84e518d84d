import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { JudgeInfo } from '../spec/judge-info.js';
import { parseFrontMatter } from './front-matter.js';
import { JudgeTemplateError } from './judge-template-error.js';

/**
 * How a judge answers: `json` (one JSON object validated by a zod schema) or `answer-line`
 * (free reasoning, then a line starting with a marker such as `Answer:` followed by a label).
 */
export type JudgeProtocol = 'json' | 'answer-line';

/**
 * A parsed, versioned judge prompt. Templates are Markdown files named `<id>.v<version>.md`
 * whose body uses `{{slot}}` placeholders for exactly the slots listed in `inputs`.
 */
export type JudgeTemplate = {
  readonly id: string;
  readonly version: number;
  readonly protocol: JudgeProtocol;
  /** Name of the output schema (json) or answer format (answer-line); documentation and structured-output name. */
  readonly output: string;
  /** Slot names, in declaration order; the body uses each one at least once and no others. */
  readonly inputs: readonly string[];
  /** answer-line only: the line marker the answer follows (default `Answer:`), matched case-insensitively. */
  readonly answerPattern?: string;
  /** answer-line only: the allowed answers (e.g. `Yes`, `No`); absent means any non-empty answer. */
  readonly labels?: readonly string[];
  readonly description?: string;
  /** The prompt text after the front matter, trimmed, before substitution. */
  readonly body: string;
  /** SHA-256 (hex) of the whole file text as given, front matter included; goes into the run header. */
  readonly sha256: string;
  /** Where the text came from (a path, or any label for inline text); used in error messages. */
  readonly source: string;
  /**
   * Substitutes every `{{slot}}` in one pass (values are never re-scanned for placeholders).
   * Throws `JudgeTemplateError` if a declared slot is missing or an undeclared one is given.
   */
  render(slots: Readonly<Record<string, string>>): string;
};

const SLOT_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
const FILE_NAME = /^(.+)\.v(\d+)\.md$/;

const frontMatterSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'use lowercase letters, digits and dashes'),
    version: z.string().regex(/^[1-9][0-9]*$/, 'use a positive integer'),
    protocol: z.enum(['json', 'answer-line']),
    output: z.string().min(1),
    inputs: z.array(z.string().regex(SLOT_NAME, 'slot names are identifiers like response_text')),
    answerPattern: z.string().min(1).optional(),
    labels: z.array(z.string().min(1)).min(1).optional(),
    description: z.string().optional(),
  })
  .strict();

/**
 * Parses a judge template from its text. `source` names the file; when it ends in `.md`
 * its base name must be `<id>.v<version>.md`, matching the front matter, so a copied
 * template cannot silently keep an old id or version. Other sources (e.g. `inline:test`)
 * skip that check. Throws `JudgeTemplateError` with the fix for any problem.
 */
export function parseJudgeTemplate({ text, source }: { text: string; source: string }): JudgeTemplate {
  const { data, body } = parseFrontMatter({ text, source });
  const checked = frontMatterSchema.safeParse(data);
  if (!checked.success) {
    const problems = checked.error.issues.map((issue) => {
      const field = issue.path.join('.') || '(front matter)';
      return `'${field}': ${issue.message}`;
    });
    throw new JudgeTemplateError(`${source}: invalid judge template front matter: ${problems.join('; ')}`);
  }
  const meta = checked.data;
  const version = Number(meta.version);

  if (meta.protocol === 'json' && (meta.answerPattern !== undefined || meta.labels !== undefined)) {
    throw new JudgeTemplateError(
      `${source}: 'answerPattern' and 'labels' apply only to protocol 'answer-line'; remove them or change the protocol`,
    );
  }
  if (source.endsWith('.md')) {
    const expected = `${meta.id}.v${version}.md`;
    if (basename(source) !== expected) {
      throw new JudgeTemplateError(
        `${source}: the file name must be '${expected}' to match its front matter (id '${meta.id}', version ${version})`,
      );
    }
  }
  const duplicate = meta.inputs.find((name, index) => meta.inputs.indexOf(name) !== index);
  if (duplicate !== undefined) {
    throw new JudgeTemplateError(`${source}: input '${duplicate}' is declared twice`);
  }

  const used = new Set<string>();
  for (const match of body.matchAll(PLACEHOLDER)) {
    const name = match[1] ?? '';
    if (!SLOT_NAME.test(name)) {
      throw new JudgeTemplateError(`${source}: '${match[0]}' is not a valid placeholder; use {{slot_name}}`);
    }
    used.add(name);
  }
  const undeclared = [...used].filter((name) => !meta.inputs.includes(name));
  if (undeclared.length > 0) {
    throw new JudgeTemplateError(
      `${source}: the body uses undeclared slot(s) ${list(undeclared)}; add them to 'inputs' or remove them`,
    );
  }
  const unused = meta.inputs.filter((name) => !used.has(name));
  if (unused.length > 0) {
    throw new JudgeTemplateError(
      `${source}: input(s) ${list(unused)} are declared but never used in the body; add {{name}} or remove them`,
    );
  }

  const inputs: readonly string[] = Object.freeze([...meta.inputs]);
  const template: JudgeTemplate = {
    id: meta.id,
    version,
    protocol: meta.protocol,
    output: meta.output,
    inputs,
    ...(meta.answerPattern === undefined ? {} : { answerPattern: meta.answerPattern }),
    ...(meta.labels === undefined ? {} : { labels: Object.freeze([...meta.labels]) }),
    ...(meta.description === undefined ? {} : { description: meta.description }),
    body,
    sha256: createHash('sha256').update(text, 'utf8').digest('hex'),
    source,
    render(slots) {
      const given = Object.keys(slots);
      const missing = inputs.filter((name) => !Object.hasOwn(slots, name));
      const extra = given.filter((name) => !inputs.includes(name));
      if (missing.length > 0 || extra.length > 0) {
        const parts = [
          missing.length > 0 ? `missing slot(s) ${list(missing)}` : '',
          extra.length > 0 ? `unexpected slot(s) ${list(extra)}` : '',
        ].filter((part) => part !== '');
        throw new JudgeTemplateError(
          `judge template ${meta.id}@${version} (${source}): ${parts.join(' and ')}; it takes exactly ${list([...inputs])}`,
        );
      }
      for (const name of given) {
        if (typeof slots[name] !== 'string') {
          throw new JudgeTemplateError(`judge template ${meta.id}@${version}: slot '${name}' must be a string`);
        }
      }
      return body.replace(PLACEHOLDER, (_whole, name: string) => slots[name] ?? '');
    },
  };
  return Object.freeze(template);
}

/**
 * Reads and parses a template file synchronously, so suites can load their templates at
 * module level and report `judges()` (which is synchronous) without a pending promise.
 */
export function loadJudgeTemplate({ path }: { path: string }): JudgeTemplate {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new JudgeTemplateError(`cannot read judge template ${path}; check the path and that the build copied it`, {
      cause: error,
    });
  }
  return parseJudgeTemplate({ text, source: path });
}

/**
 * Resolves a template file relative to a module (`judgeTemplatePath(import.meta.url, 'prompts/x.v1.md')`).
 * It works from `src/` under vitest/tsx and from `dist/` after `npm run build`, whose
 * `scripts/copy-assets.mjs` copies the `.md` files next to the compiled modules.
 */
export function judgeTemplatePath(moduleUrl: string, fileName: string): string {
  if (!FILE_NAME.test(basename(fileName))) {
    throw new JudgeTemplateError(`judge template file '${fileName}' must be named '<id>.v<version>.md'`);
  }
  return fileURLToPath(new URL(fileName, moduleUrl));
}

/** The id, version and hash of a template, as stored in the run header. */
export function judgeInfo(template: JudgeTemplate): JudgeInfo {
  return { id: template.id, version: template.version, templateSha256: template.sha256 };
}

/** `<id>@<version>`: how judge-call events and default scorer names refer to a template. */
export function judgeName(template: Pick<JudgeTemplate, 'id' | 'version'>): string {
  return `${template.id}@${template.version}`;
}

function list(names: string[]): string {
  return names.map((name) => `'${name}'`).join(', ');
}
