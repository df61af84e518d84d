import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfidantError } from '../spec/errors.js';

/**
 * A role prompt template that cannot be used as written (bad front matter, a file name that
 * does not match its id and version, a slot left without a value). An authoring fault, thrown
 * before any model call.
 */
export class RoleTemplateError extends ConfidantError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options);
    this.name = 'RoleTemplateError';
  }
}

/**
 * A versioned role prompt: `<id>.v<version>.md` with a small front matter
 * (`id`, `version`, optional `statement`, `privacy_statement` and `description`) and a body.
 *
 * The `statement` is the role statement that ends the role's system line; `privacy_statement`
 * replaces it in privacy-enhanced mode when given. The body is the role's own instruction
 * (possibly empty). `{{slot}}` placeholders are filled by `render`.
 *
 * This is not the judge template loader on purpose: `judges/` is a sibling layer that
 * `orchestration/` may not import, and judge front matter requires judge-only fields
 * (`protocol`, `output`, declared `inputs`) that mean nothing for a role prompt.
 */
export type RoleTemplate = {
  readonly id: string;
  readonly version: number;
  readonly statement: string | undefined;
  readonly privacyStatement: string | undefined;
  readonly body: string;
  /** SHA-256 (hex) of the whole file text; changes whenever the wording does. */
  readonly sha256: string;
  readonly source: string;
  /**
   * Replaces every `{{slot}}` in `text` in one pass (values are not re-scanned).
   * Throws `RoleTemplateError` for a placeholder with no value; extra values are ignored.
   */
  render(text: string, slots: Readonly<Record<string, string>>): string;
};

const FILE_NAME = /^(.+)\.v(\d+)\.md$/;
const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
const KEY_LINE = /^([a-z_]+):[ \t]*(.*?)[ \t]*$/;
const KEYS = new Set(['id', 'version', 'statement', 'privacy_statement', 'description']);

function unquote(value: string, where: string): string {
  if (value.startsWith('"')) {
    try {
      const parsed: unknown = JSON.parse(value);
      if (typeof parsed === 'string') return parsed;
    } catch {
      // reported below
    }
    throw new RoleTemplateError(`${where}: invalid double-quoted string ${value}`);
  }
  return value;
}

/** Parses a role template from its text; `source` ending in `.md` must be `<id>.v<version>.md`. */
export function parseRoleTemplate({ text, source }: { text: string; source: string }): RoleTemplate {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trim() !== '---') {
    throw new RoleTemplateError(`${source}: a role template must start with a '---' front-matter line`);
  }
  const end = lines.findIndex((line, index) => index > 0 && line.trim() === '---');
  if (end === -1) throw new RoleTemplateError(`${source}: the front matter is not closed; add a '---' line`);
  const data: Record<string, string> = {};
  for (let index = 1; index < end; index += 1) {
    const line = lines[index] ?? '';
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const match = KEY_LINE.exec(line);
    const key = match?.[1] ?? '';
    if (!match || !KEYS.has(key)) {
      throw new RoleTemplateError(
        `${source}:${index + 1}: expected one of ${[...KEYS].join(', ')} as 'key: value', got '${line.trim()}'`,
      );
    }
    data[key] = unquote(match[2] ?? '', `${source}:${index + 1}`);
  }
  const id = data.id ?? '';
  const version = Number(data.version);
  if (!/^[a-z0-9][a-z0-9-]*$/.test(id) || !Number.isInteger(version) || version < 1) {
    throw new RoleTemplateError(`${source}: front matter needs 'id: <lowercase-id>' and 'version: <positive integer>'`);
  }
  if (source.endsWith('.md') && basename(source) !== `${id}.v${version}.md`) {
    throw new RoleTemplateError(`${source}: the file name must be '${id}.v${version}.md' to match its front matter`);
  }
  return Object.freeze({
    id,
    version,
    statement: data.statement,
    privacyStatement: data.privacy_statement,
    body: lines
      .slice(end + 1)
      .join('\n')
      .trim(),
    sha256: createHash('sha256').update(text, 'utf8').digest('hex'),
    source,
    render(value: string, slots: Readonly<Record<string, string>>): string {
      return value.replace(PLACEHOLDER, (_whole, name: string) => {
        const slot = slots[name];
        if (slot === undefined) throw new RoleTemplateError(`role template ${id}@${version}: no value for {{${name}}}`);
        return slot;
      });
    },
  });
}

/**
 * Reads a role template next to a module: `loadRoleTemplate(import.meta.url, 'prompts/x.v1.md')`.
 * Synchronous so that prompt builders can load their templates at module level; the build's
 * `scripts/copy-assets.mjs` copies the `.md` files next to the compiled modules.
 */
export function loadRoleTemplate(moduleUrl: string, fileName: string): RoleTemplate {
  if (!FILE_NAME.test(basename(fileName))) {
    throw new RoleTemplateError(`role template file '${fileName}' must be named '<id>.v<version>.md'`);
  }
  const path = fileURLToPath(new URL(fileName, moduleUrl));
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new RoleTemplateError(`cannot read role template ${path}; check that the build copied it`, {
      cause: error,
    });
  }
  return parseRoleTemplate({ text, source: path });
}
