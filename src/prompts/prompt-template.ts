import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ZodType, z } from 'zod';
import { fillSlots, SLOT_NAME, slotsUsedIn } from './fill-slots.js';
import { PromptTemplateError } from './prompt-template-error.js';

/**
 * The `yaml` package, required on the first template read (front matter is parsed synchronously):
 * a command that reads no template, such as a ConfAIde run or `--help`, never loads it.
 */
let yamlModule: typeof import('yaml') | undefined;
function yaml(): typeof import('yaml') {
  yamlModule ??= createRequire(import.meta.url)('yaml') as typeof import('yaml');
  return yamlModule;
}

/** One named part of a sectioned template: the text after a `<!-- part: name -->` line, trimmed. */
export type PromptPart = { readonly name: string; readonly text: string };

/**
 * A parsed, versioned prompt file `<id>.v<version>.md`: YAML front matter between `---` lines,
 * then a body. Every template has `id`, `version` and optional `description` and `inputs`; the
 * rest of the front matter is `meta`, validated by the schema the caller passes. A sectioned
 * template's body is named parts, each starting at a `<!-- part: name -->` line.
 */
export type PromptTemplate<Meta = Record<string, never>> = {
  readonly id: string;
  readonly version: number;
  readonly description: string | undefined;
  /**
   * The declared slots (`inputs:`), in declaration order, or `undefined` when the template
   * declares none. When declared, the body uses each one and no other.
   */
  readonly inputs: readonly string[] | undefined;
  /** The rest of the front matter, as the caller's schema returned it. */
  readonly meta: Meta;
  /** The text after the front matter, trimmed, before substitution. */
  readonly body: string;
  /** The named parts in file order; empty unless the template was parsed as sectioned. */
  readonly parts: readonly PromptPart[];
  /** SHA-256 (hex) of the whole file text, front matter included; records name the exact wording with it. */
  readonly sha256: string;
  /** Where the text came from (a path, or any label for inline text); used in error messages. */
  readonly source: string;
  has(name: string): boolean;
  /** The text of part `name`; throws {@link PromptTemplateError} when absent. */
  part(name: string): string;
  /** The part's non-blank lines (bullet lists), or `[]` when the part is absent. */
  lines(name: string): string[];
  /**
   * Fills `{{slot}}` placeholders of `text` (the body, a part or a front-matter value) in one
   * pass. A placeholder without a value throws {@link PromptTemplateError}; extra values are ignored.
   */
  fill(text: string, slots: Readonly<Record<string, string>>): string;
};

const FILE_NAME = /^(.+)\.v(\d+)\.md$/;
const FENCE_LINE = /^---[ \t]*$/;
const PART_LINE = /^<!-- part: ([a-z0-9:-]+) -->$/;

const commonSchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'use lowercase letters, digits and dashes'),
  version: z.number().int('use a positive integer').positive('use a positive integer'),
  description: z.string().optional(),
  inputs: z.array(z.string().regex(SLOT_NAME, 'slot names are identifiers like response_text')).optional(),
});
const COMMON_KEYS = new Set(Object.keys(commonSchema.shape));
const noMeta = z.object({}).strict();

/**
 * Parses a prompt template from its text. The front matter is YAML (a mapping); `id`,
 * `version`, `description` and `inputs` are checked here, every other key goes to `schema`
 * (default: none allowed). When `source` ends in `.md` its base name must be
 * `<id>.v<version>.md`, so a copied template cannot silently keep an old id or version.
 * Placeholders must be `{{identifier}}`; declared `inputs` are checked both ways against the
 * body. Throws {@link PromptTemplateError} with the fix for any problem.
 */
export function parsePromptTemplate<Meta = Record<string, never>>({
  text,
  source,
  schema,
  sectioned = false,
}: {
  text: string;
  source: string;
  /** Validates the front-matter keys other than id, version, description and inputs. */
  schema?: ZodType<Meta>;
  /** The body is named parts only (`<!-- part: name -->` lines, non-blank text before the first is an error). */
  sectioned?: boolean;
}): PromptTemplate<Meta> {
  const { data, body } = splitFrontMatter({ text, source });
  const common = commonSchema.safeParse(data);
  if (!common.success) throw invalid(source, common.error);
  const rest = Object.fromEntries(Object.entries(data).filter(([key]) => !COMMON_KEYS.has(key)));
  const checked = (schema ?? noMeta).safeParse(rest);
  if (!checked.success) throw invalid(source, checked.error);
  const { id, version, description, inputs } = common.data;

  if (source.endsWith('.md')) {
    const expected = `${id}.v${version}.md`;
    if (basename(source) !== expected) {
      throw new PromptTemplateError(
        `${source}: the file name must be '${expected}' to match its front matter (id '${id}', version ${version})`,
      );
    }
  }
  const used = slotsUsedIn({ text: body, source });
  if (inputs !== undefined) checkDeclaredSlots({ inputs, used, source });
  const parts = sectioned ? splitParts({ body, source }) : [];
  const texts = new Map(parts.map((part) => [part.name, part.text]));
  const name = `${id}@${version} (${source})`;
  return Object.freeze({
    id,
    version,
    description,
    inputs: inputs === undefined ? undefined : Object.freeze([...inputs]),
    meta: checked.data as Meta,
    body,
    parts,
    sha256: createHash('sha256').update(text, 'utf8').digest('hex'),
    source,
    has: (part: string) => texts.has(part),
    part(part: string) {
      const found = texts.get(part);
      if (found === undefined) throw new PromptTemplateError(`${source}: no part '${part}'`);
      return found;
    },
    lines: (part: string) => (texts.get(part) ?? '').split('\n').filter((line) => line.trim() !== ''),
    fill: (value: string, slots: Readonly<Record<string, string>>) => fillSlots({ text: value, slots, source: name }),
  });
}

/**
 * Reads and parses a template file synchronously, so that modules can load their templates at
 * module level and report them (e.g. a suite's synchronous `judges()`) without a pending promise.
 */
export function loadPromptTemplate<Meta = Record<string, never>>({
  path,
  schema,
  sectioned = false,
}: {
  path: string;
  schema?: ZodType<Meta>;
  sectioned?: boolean;
}): PromptTemplate<Meta> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new PromptTemplateError(`cannot read prompt template ${path}; check the path and that the build copied it`, {
      cause: error,
    });
  }
  return parsePromptTemplate({ text, source: path, sectioned, ...(schema === undefined ? {} : { schema }) });
}

/**
 * Resolves a template file relative to a module (`promptTemplatePath(import.meta.url, 'prompts/x.v1.md')`).
 * It works from `src/` under vitest/tsx and from `dist/` after `npm run build`, whose
 * `scripts/copy-assets.mjs` copies the `.md` files next to the compiled modules.
 */
export function promptTemplatePath(moduleUrl: string, fileName: string): string {
  if (!FILE_NAME.test(basename(fileName))) {
    throw new PromptTemplateError(`prompt template file '${fileName}' must be named '<id>.v<version>.md'`);
  }
  return fileURLToPath(new URL(fileName, moduleUrl));
}

/**
 * The id and version a template file's name gives (`<id>.v<version>.md`), without reading it: the
 * loader refuses a file whose front matter says otherwise, so these are the loaded template's.
 * Lets a module name a judge (`<id>@<version>`) at import and read the file on first use.
 */
export function templateFileId(path: string): { id: string; version: number } {
  const match = FILE_NAME.exec(basename(path));
  if (match === null) {
    throw new PromptTemplateError(`prompt template file '${path}' must be named '<id>.v<version>.md'`);
  }
  return { id: match[1]!, version: Number(match[2]) };
}

/** Splits the `---` fenced YAML front matter from the body (trimmed); the front matter must be a mapping. */
function splitFrontMatter({ text, source }: { text: string; source: string }): {
  data: Record<string, unknown>;
  body: string;
} {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (!FENCE_LINE.test(lines[0] ?? '')) {
    throw new PromptTemplateError(`${source}: a prompt template must start with a '---' front-matter line`);
  }
  const end = lines.findIndex((line, index) => index > 0 && FENCE_LINE.test(line));
  if (end === -1) {
    throw new PromptTemplateError(`${source}: the front matter is not closed; add a '---' line after it`);
  }
  const yamlText = lines.slice(1, end).join('\n');
  let data: unknown;
  const { parse: parseYaml, YAMLError } = yaml();
  try {
    data = parseYaml(yamlText, { uniqueKeys: true, prettyErrors: false });
  } catch (error) {
    if (!(error instanceof YAMLError)) throw error;
    // Line of the problem in the file: the front matter starts on line 2.
    const line = yamlText.slice(0, error.pos[0]).split('\n').length + 1;
    throw new PromptTemplateError(`${source}:${line}: the front matter is not valid YAML: ${error.message}`, {
      cause: error,
    });
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new PromptTemplateError(`${source}: the front matter must be 'key: value' lines`);
  }
  return {
    data: data as Record<string, unknown>,
    body: lines
      .slice(end + 1)
      .join('\n')
      .trim(),
  };
}

function checkDeclaredSlots({
  inputs,
  used,
  source,
}: {
  inputs: readonly string[];
  used: readonly string[];
  source: string;
}): void {
  const duplicate = inputs.find((name, index) => inputs.indexOf(name) !== index);
  if (duplicate !== undefined) throw new PromptTemplateError(`${source}: input '${duplicate}' is declared twice`);
  const undeclared = used.filter((name) => !inputs.includes(name));
  if (undeclared.length > 0) {
    throw new PromptTemplateError(
      `${source}: the body uses undeclared slot(s) ${quoteAll(undeclared)}; add them to 'inputs' or remove them`,
    );
  }
  const unused = inputs.filter((name) => !used.includes(name));
  if (unused.length > 0) {
    throw new PromptTemplateError(
      `${source}: input(s) ${quoteAll(unused)} are declared but never used in the body; add {{name}} or remove them`,
    );
  }
}

/** Named parts: text before the first `<!-- part: name -->` line must be blank; no part twice. */
function splitParts({ body, source }: { body: string; source: string }): PromptPart[] {
  const parts: Array<{ name: string; lines: string[] }> = [];
  for (const line of body.split('\n')) {
    const start = PART_LINE.exec(line);
    if (start !== null) {
      const name = start[1] ?? '';
      if (parts.some((part) => part.name === name)) {
        throw new PromptTemplateError(`${source}: part '${name}' appears twice`);
      }
      parts.push({ name, lines: [] });
    } else if (parts.length > 0) {
      parts.at(-1)?.lines.push(line);
    } else if (line.trim() !== '') {
      throw new PromptTemplateError(`${source}: text before the first '<!-- part: name -->' line`);
    }
  }
  return parts.map((part) => Object.freeze({ name: part.name, text: part.lines.join('\n').trim() }));
}

function invalid(source: string, error: z.ZodError): PromptTemplateError {
  const problems = error.issues.map((issue) => `'${issue.path.join('.') || '(front matter)'}': ${issue.message}`);
  return new PromptTemplateError(`${source}: invalid front matter: ${problems.join('; ')}`);
}

/** `'a', 'b'`: names quoted for messages. */
export function quoteAll(names: readonly string[]): string {
  return names.map((name) => `'${name}'`).join(', ');
}
