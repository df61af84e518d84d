import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ConfidantError } from '../../spec/errors.js';

/**
 * A PAC prompt file that cannot be used as written (bad front matter, a missing part, a slot
 * without a value). A packaging fault of ours, thrown before any model call.
 */
export class PacPromptTemplateError extends ConfidantError {
  constructor(message: string) {
    super(message);
    this.name = 'PacPromptTemplateError';
  }
}

/**
 * A sectioned prompt file: front matter (`id`, `version`, optional `description`, `#` comments)
 * between `---` lines, then named parts that each start at a `<!-- part: name -->` line. A file
 * may have no parts at all (a variant that only removes text).
 */
export type PacPromptTemplate = {
  readonly id: string;
  readonly version: number;
  readonly description: string;
  /** SHA-256 (hex) of the whole file; records name the exact wording with it. */
  readonly sha256: string;
  readonly source: string;
  /** Part names in file order. */
  readonly partNames: readonly string[];
  has(name: string): boolean;
  /** The trimmed text of part `name`; throws {@link PacPromptTemplateError} when absent. */
  part(name: string): string;
  /** The part's non-blank lines (bullet lists), or `[]` when the part is absent. */
  lines(name: string): string[];
};

const FENCE = /^---[ \t]*$/;
const KEY_LINE = /^([a-z][a-z0-9_-]*):[ \t]*(.*?)[ \t]*$/;
const PART_LINE = /^<!-- part: ([a-z0-9:-]+) -->$/;
const PLACEHOLDER = /\{\{([A-Za-z][A-Za-z0-9]*)\}\}/g;

/** Parses a prompt file (see {@link PacPromptTemplate}); `source` names it in errors. */
export function parsePacPromptTemplate({ text, source }: { text: string; source: string }): PacPromptTemplate {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (!FENCE.test(lines[0] ?? '')) throw new PacPromptTemplateError(`${source}: must start with a '---' line`);
  const end = lines.findIndex((line, index) => index > 0 && FENCE.test(line));
  if (end === -1) throw new PacPromptTemplateError(`${source}: the front matter is not closed by a '---' line`);
  const data: Record<string, string> = {};
  for (const line of lines.slice(1, end)) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const match = KEY_LINE.exec(line);
    if (match === null) throw new PacPromptTemplateError(`${source}: cannot read front-matter line '${line}'`);
    data[match[1] ?? ''] = match[2] ?? '';
  }
  const version = Number(data.version);
  if (data.id === undefined || data.id === '' || !Number.isInteger(version) || version < 1) {
    throw new PacPromptTemplateError(`${source}: the front matter needs 'id' and a positive integer 'version'`);
  }
  const parts = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of lines.slice(end + 1)) {
    const start = PART_LINE.exec(line);
    if (start !== null) {
      const name = start[1] ?? '';
      if (parts.has(name)) throw new PacPromptTemplateError(`${source}: part '${name}' appears twice`);
      current = [];
      parts.set(name, current);
    } else if (current !== undefined) {
      current.push(line);
    } else if (line.trim() !== '') {
      throw new PacPromptTemplateError(`${source}: text before the first '<!-- part: name -->' line`);
    }
  }
  const texts = new Map([...parts].map(([name, body]) => [name, body.join('\n').trim()]));
  return {
    id: data.id,
    version,
    description: data.description ?? '',
    sha256: createHash('sha256').update(text, 'utf8').digest('hex'),
    source,
    partNames: [...texts.keys()],
    has: (name) => texts.has(name),
    part(name) {
      const found = texts.get(name);
      if (found === undefined) throw new PacPromptTemplateError(`${source}: no part '${name}'`);
      return found;
    },
    lines: (name) => (texts.get(name) ?? '').split('\n').filter((line) => line.trim() !== ''),
  };
}

/** Reads and parses a prompt file synchronously (prompt files load at module level). */
export function loadPacPromptTemplate(path: string): PacPromptTemplate {
  return parsePacPromptTemplate({ text: readFileSync(path, 'utf8'), source: path });
}

/**
 * Replaces every `{{slot}}` in one pass, so slot values (scenario text) are never scanned for
 * placeholders themselves. A placeholder without a value throws {@link PacPromptTemplateError}.
 */
export function fillPacSlots(text: string, slots: Readonly<Record<string, string>>): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    const value = slots[name];
    if (value === undefined) throw new PacPromptTemplateError(`no value for the prompt slot ${whole}`);
    return value;
  });
}
